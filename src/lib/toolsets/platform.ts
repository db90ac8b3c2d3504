/**
 * Hermes' implicit `hermes-<platform>` bundles: a messaging platform added by
 * a plugin has no table entry, yet `hermes-<platform>` names the core tools
 * plus whatever the platform's toolset registers. Headless we have no gateway
 * platform registry, so a platform is known when a plugin registered a
 * toolset of that name (not an `mcp-` one), or the view lists it in `platforms`.
 */
const PREFIX = "hermes-"

/** `<platform>` of `hermes-<platform>`, or undefined for any other name. */
export const implicitPlatformName = (name: string): string | undefined =>
  name.startsWith(PREFIX) && name.length > PREFIX.length ? name.slice(PREFIX.length) : undefined

export const platformDescription = (platform: string): string => `Platform bundle: core tools plus ${platform} tools`
