/**
 * The built-in tools, registered into the ToolRegistry when this layer is built.
 */
import { Effect, Layer } from "effect"
import { registerTool } from "../lib/tool/registerTool.js"
import { clarifyTool } from "./clarify.js"
import { executeCodeTool } from "./code/executeCode.js"
import { patchTool } from "./files/patch.js"
import { readFileTool } from "./files/readFile.js"
import { searchFilesTool } from "./files/searchFiles.js"
import { writeFileTool } from "./files/writeFile.js"
import { memoryTool } from "./memory.js"
import { processTool } from "./process.js"
import { sessionSearchTool } from "./sessionSearch.js"
import { skillManageTool } from "./skills/skillManage.js"
import { skillsListTool } from "./skills/skillsList.js"
import { skillViewTool } from "./skills/skillView.js"
import { terminalTool } from "./terminal.js"
import { closeTerminalTool, readTerminalTool } from "./terminalView.js"
import { todoTool } from "./todo.js"
import { imageGenerateTool } from "./imageGenerate.js"
import { moaTool } from "./moa.js"
import { ttsTool } from "./tts.js"
import { visionAnalyzeTool } from "./vision.js"
import { webCrawlTool } from "./web/webCrawl.js"
import { webExtractTool } from "./web/webExtract.js"
import { webSearchTool } from "./web/webSearch.js"
import { registerBrowserTools } from "./browser/index.js"

export const BuiltinToolsLive = Layer.effectDiscard(
  Effect.all([registerTool(todoTool), registerTool(terminalTool), registerTool(processTool), registerTool(clarifyTool),
    registerTool(readFileTool), registerTool(writeFileTool), registerTool(patchTool), registerTool(searchFilesTool),
    registerTool(memoryTool), registerTool(sessionSearchTool), registerTool(skillsListTool), registerTool(skillViewTool),
    registerTool(skillManageTool), registerTool(readTerminalTool), registerTool(closeTerminalTool),
    registerTool(visionAnalyzeTool), registerTool(moaTool), registerTool(ttsTool), registerTool(imageGenerateTool),
    registerTool(executeCodeTool),
    registerTool(webExtractTool), registerTool(webSearchTool), registerTool(webCrawlTool),
    registerBrowserTools], { discard: true }).pipe(Effect.orDie)
)

export { clarifyTool } from "./clarify.js"
export { executeCodeTool } from "./code/executeCode.js"
export { cronjobTool, CronToolLive } from "./cronjob.js"
export { delegateTool, DelegateToolLive } from "./delegate.js"
export { patchTool } from "./files/patch.js"
export { readFileTool } from "./files/readFile.js"
export { searchFilesTool } from "./files/searchFiles.js"
export { writeFileTool } from "./files/writeFile.js"
export { defineTool, deriveJsonSchema } from "../lib/tool/defineTool.js"
export { memoryTool } from "./memory.js"
export { processTool } from "./process.js"
export { sessionSearchTool } from "./sessionSearch.js"
export { skillManageTool } from "./skills/skillManage.js"
export { skillsListTool } from "./skills/skillsList.js"
export { skillViewTool } from "./skills/skillView.js"
export { terminalTool } from "./terminal.js"
export { closeTerminalTool, readTerminalTool } from "./terminalView.js"
export { todoTool } from "./todo.js"
export { imageGenerateTool } from "./imageGenerate.js"
export { moaTool } from "./moa.js"
export { ttsTool } from "./tts.js"
export { visionAnalyzeTool } from "./vision.js"
export { webCrawlTool } from "./web/webCrawl.js"
export { webExtractTool } from "./web/webExtract.js"
export { webSearchTool } from "./web/webSearch.js"
