export * from "./assemble.js"
export * from "./bridgeSchemas.js"
export * from "./config.js"
export * from "./search.js"
