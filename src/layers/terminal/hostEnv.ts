/**
 * The two environments a transport backend deals with: the one its local
 * clients (ssh, docker, podman) run with, which is this process's own (they
 * need SSH_AUTH_SOCK, DOCKER_HOST, CONTAINERS_CONF…), and the few variables
 * that are forwarded to the target. Nothing else of this process's
 * environment reaches a remote command.
 */

/** This process's environment, for local client processes. */
export const clientEnvironment = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined))

/** The named variables that are set here, to export on the target. */
export const forwardedVariables = (names: ReadonlyArray<string>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const name of names) {
    const value = process.env[name]
    if (value !== undefined) out[name] = value
  }
  return out
}
