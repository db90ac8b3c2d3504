/** The part of better-sqlite3 the state database's client uses (the package ships no types, and @types is not installed). */
declare module "better-sqlite3" {
  namespace Database {
    interface Statement {
      /** Whether the statement returns rows (a SELECT, or a write with RETURNING). */
      readonly reader: boolean
      all(...params: ReadonlyArray<unknown>): Array<object>
      run(...params: ReadonlyArray<unknown>): { readonly changes: number; readonly lastInsertRowid: number | bigint }
      raw(toggle?: boolean): this
      safeIntegers(toggle?: boolean): this
    }
    interface Options {
      readonly readonly?: boolean | undefined
    }
  }
  interface Database {
    prepare(source: string): Database.Statement
    close(): this
    serialize(): Buffer
    backup(destination: string): Promise<{ readonly totalPages: number; readonly remainingPages: number }>
    loadExtension(path: string): this
    pragma(source: string): unknown
  }
  const Database: new(filename: string, options?: Database.Options) => Database
  export = Database
}
