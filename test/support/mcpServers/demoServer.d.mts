import type { Server } from "@modelcontextprotocol/sdk/server/index.js"

export interface DemoServerOptions {
  readonly name?: string
  readonly extras?: boolean
  readonly onCrash?: () => void
}

export declare const createDemoServer: (options?: DemoServerOptions) => Server
