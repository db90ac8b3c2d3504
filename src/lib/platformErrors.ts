/**
 * @effect/platform wraps a failed Node call in a `SystemError` whose `cause`
 * is Node's own error: these read that error, so messages and errno codes stay
 * what Node said.
 */

/** Node's error under a PlatformError `SystemError`, else the value itself. */
export const nodeErrorOf = (e: unknown): unknown =>
  e !== null && typeof e === "object" && "_tag" in e && e._tag === "SystemError" && "cause" in e && e.cause !== undefined ? e.cause : e

/** The errno code (`ENOENT`, `EEXIST`, …) of a Node error, wrapped or not. */
export const errnoCode = (e: unknown): string | undefined => {
  const error = nodeErrorOf(e)
  return error !== null && typeof error === "object" && "code" in error && typeof error.code === "string" ? error.code : undefined
}

/** The message Node gave, for error texts. */
export const nodeMessage = (e: unknown): string => {
  const error = nodeErrorOf(e)
  return error instanceof Error ? error.message : String(error)
}
