import { join } from "node:path"
import { stateDatabaseLayer } from "../../src/layers/sql/StateDatabase.js"
import { tempHome } from "../support/runtime.js"
import { sessionStoreSuite } from "./storeSuite.js"

sessionStoreSuite("a state.db file", () => stateDatabaseLayer({ filename: join(tempHome("hermes-sessions-"), "state.db") }))
sessionStoreSuite("a state.db file opened on first use", () =>
  stateDatabaseLayer({ filename: join(tempHome("hermes-sessions-"), "state.db"), openOnFirstUse: true }))
