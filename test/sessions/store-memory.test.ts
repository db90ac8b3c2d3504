import { StateDatabaseMemory } from "../../src/layers/sql/StateDatabase.js"
import { sessionStoreSuite } from "./storeSuite.js"

sessionStoreSuite(":memory:", () => StateDatabaseMemory)
