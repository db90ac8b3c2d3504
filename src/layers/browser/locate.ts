/** Which browser to use: `browser.cdp_url`, else `browser.executable`, else a Chromium-family binary on PATH. */
import { accessSync, constants, statSync } from "node:fs"
import { delimiter, join } from "node:path"
import type { HermesConfig } from "../../services/Config.js"
import type { BrowserSource } from "../../services/Browser.js"

const CANDIDATES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The first candidate on PATH (PATH order, then candidate order). */
export const findOnPath = (path = process.env["PATH"] ?? ""): string | undefined => {
  for (const dir of path.split(delimiter).filter((d) => d !== "")) {
    for (const name of CANDIDATES) {
      const full = join(dir, name)
      if (executable(full)) return full
    }
  }
  return undefined
}

export const locateBrowser = (config: HermesConfig): BrowserSource | undefined => {
  const cdp = config.browser.cdp_url?.trim() ?? ""
  if (cdp !== "") return { _tag: "Cdp", url: cdp }
  const configured = config.browser.executable?.trim() ?? ""
  if (configured !== "") return executable(configured) ? { _tag: "Executable", path: configured } : undefined
  const found = findOnPath()
  return found === undefined ? undefined : { _tag: "Executable", path: found }
}
