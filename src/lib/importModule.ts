/**
 * `import(specifier)` for modules named at run time (plugins, playwright-core).
 * The CLI runs its bundle through a V8 code cache (programs/codeCache.ts), and
 * Node 20 loses the dynamic-import callback of functions restored from such a
 * cache; the CLI's ES-module entry therefore registers its own `import` under
 * a global symbol, and this uses it when present. Library users get plain `import()`.
 */
const HOST_IMPORT = Symbol.for("hermes-effect/import")

type Importer = (specifier: string) => Promise<unknown>

export const importModule = (specifier: string): Promise<unknown> => {
  const host = (globalThis as { [HOST_IMPORT]?: Importer })[HOST_IMPORT]
  return host === undefined ? import(specifier) : host(specifier)
}

/** Called by the CLI entry with an `import` that belongs to a real ES module. */
export const registerHostImport = (importer: Importer): void => {
  ;(globalThis as { [HOST_IMPORT]?: Importer })[HOST_IMPORT] = importer
}
