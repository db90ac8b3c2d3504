/**
 * The environment a stdio MCP server starts with: the basics a program needs
 * to run (PATH, HOME, locale, terminal, temp dir, XDG dirs) and what its own
 * config entry sets, never the runtime's credentials. (The SDK adds HOME,
 * LOGNAME, PATH, SHELL, TERM and USER from its own safe list.)
 */
const PASSED = new Set(["PATH", "HOME", "USER", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR"])

const passes = (key: string) => PASSED.has(key) || key.startsWith("XDG_")

export const serverEnvironment = (
  own: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env
): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(parent)) {
    // Exported shell functions (`() { …`) are a classic injection vector; never pass them on.
    if (value !== undefined && passes(key) && !value.startsWith("()")) env[key] = value
  }
  return { ...env, ...own }
}
