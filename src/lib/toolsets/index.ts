export * from "./table.js"
export * from "./resolve.js"
