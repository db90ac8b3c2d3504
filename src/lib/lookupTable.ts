/**
 * String-keyed tables that text from the model indexes (program names, options, variable names). A plain object
 * literal answers `constructor`, `toString` or `__proto__` from Object.prototype, so a command named `toString`
 * would find a function where a table entry was expected; these objects have no prototype.
 */

/** A frozen copy of `entries` without a prototype: only its own keys answer. */
export const lookupTable = <T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> =>
  Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries))

/** An empty record without a prototype, to fill from input (`rec["__proto__"] = v` stores a key like any other). */
export const inputRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>
