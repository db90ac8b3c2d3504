import { StateDatabaseMemory, StateDatabaseMemoryOnDemand } from "../../src/layers/sql/StateDatabase.js"
import { sessionStoreSuite } from "./storeSuite.js"

sessionStoreSuite(":memory:", () => StateDatabaseMemory)
sessionStoreSuite(":memory:, made on first use", () => StateDatabaseMemoryOnDemand)
