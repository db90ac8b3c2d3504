/**
 * What a URL must look like before the web tools touch it (pure): http(s)
 * only, no secrets in it, no metadata host names. Address checks after DNS
 * live in `addressPolicy.ts`; both run again on every redirect.
 */
import { redactSecrets } from "../redact.js"
import { METADATA_HOSTS } from "./addressPolicy.js"

/** Query keys whose non-empty value is a credential (Hermes refuses the whole call). */
export const SENSITIVE_QUERY_KEYS: ReadonlyArray<string> = [
  "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "api-key", "key_secret", "password",
  "passwd", "secret", "client_secret", "signature", "sig", "session_id", "sessionid", "jwt", "auth",
  "x-amz-signature", "x-amz-security-token", "x-goog-signature"
]

export const BLOCKED_PRIVATE = "Blocked: URL targets a private or internal network address"
export const BLOCKED_SECRET =
  "Blocked: URL contains what appears to be an API key or token. Pass secrets through configuration, never inside a URL."
export const blockedParam = (name: string) =>
  `Blocked: URL contains a credential-like query parameter (${name}). Remove it and retry.`

export type UrlVerdict =
  | { readonly _tag: "Ok"; readonly url: URL }
  | { readonly _tag: "Invalid"; readonly message: string }
  | { readonly _tag: "Secret"; readonly message: string }
  | { readonly _tag: "Private"; readonly message: string }

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Parse and vet a URL; WHATWG parsing already turns `http://2130706433/` into `127.0.0.1` and IDN hosts into punycode. */
export const vetUrl = (raw: string): UrlVerdict => {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return { _tag: "Invalid", message: `Invalid URL: ${raw.slice(0, 200)}` }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { _tag: "Invalid", message: `Unsupported URL scheme '${url.protocol.replace(/:$/, "")}': only http and https are fetched` }
  }
  for (const [key, value] of url.searchParams) {
    if (value !== "" && SENSITIVE_QUERY_KEYS.includes(key.toLowerCase())) return { _tag: "Secret", message: blockedParam(key) }
  }
  const text = url.toString()
  if (url.password !== "" || redactSecrets(text) !== text || redactSecrets(decoded(text)) !== decoded(text)) {
    return { _tag: "Secret", message: BLOCKED_SECRET }
  }
  const host = url.hostname.replace(/\.$/, "").toLowerCase()
  if (METADATA_HOSTS.includes(host)) return { _tag: "Private", message: BLOCKED_PRIVATE }
  return { _tag: "Ok", url }
}

/** A URL safe to log: no query, fragment or credentials (they may carry secrets). */
export const loggableUrl = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`
