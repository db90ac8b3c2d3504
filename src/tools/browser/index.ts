/** The browser tools, registered by BuiltinToolsLive. */
import { Effect } from "effect"
import { registerTool } from "../../lib/tool/registerTool.js"
import { browserBackTool, browserClickTool, browserPressTool, browserScrollTool, browserTypeTool } from "./actions.js"
import { browserCdpTool, browserDialogTool } from "./cdp.js"
import { browserConsoleTool, browserGetImagesTool } from "./inspect.js"
import { browserNavigateTool } from "./navigate.js"
import { browserSnapshotTool } from "./snapshot.js"
import { browserVisionTool } from "./vision.js"

export const registerBrowserTools = Effect.all([
  registerTool(browserNavigateTool), registerTool(browserSnapshotTool), registerTool(browserClickTool), registerTool(browserTypeTool),
  registerTool(browserScrollTool), registerTool(browserBackTool), registerTool(browserPressTool), registerTool(browserGetImagesTool),
  registerTool(browserConsoleTool), registerTool(browserVisionTool), registerTool(browserCdpTool), registerTool(browserDialogTool)
], { discard: true })

export {
  browserBackTool,
  browserCdpTool,
  browserClickTool,
  browserConsoleTool,
  browserDialogTool,
  browserGetImagesTool,
  browserNavigateTool,
  browserPressTool,
  browserScrollTool,
  browserSnapshotTool,
  browserTypeTool,
  browserVisionTool
}
