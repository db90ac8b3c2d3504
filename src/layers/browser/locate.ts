/** Which browser to use: `browser.cdp_url`, else `browser.executable`, else a Chromium-family binary on PATH. */
import { findExecutable, isExecutableFile } from "../../lib/executables.js"
import type { HermesConfig } from "../../services/Config.js"
import type { BrowserSource } from "../../services/Browser.js"

const CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

/** The first candidate on PATH (PATH order, then candidate order). */
export const findOnPath = (path = process.env["PATH"] ?? ""): string | undefined => findExecutable(CANDIDATES, path)

export const locateBrowser = (config: HermesConfig): BrowserSource | undefined => {
  const cdp = config.browser.cdp_url?.trim() ?? ""
  if (cdp !== "") return { _tag: "Cdp", url: cdp }
  const configured = config.browser.executable?.trim() ?? ""
  if (configured !== "") return isExecutableFile(configured) ? { _tag: "Executable", path: configured } : undefined
  const found = findOnPath()
  return found === undefined ? undefined : { _tag: "Executable", path: found }
}
