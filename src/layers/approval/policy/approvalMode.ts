/** `approvals.mode`: manual (default), smart or off. YAML `off` unquoted arrives as `false`. */
export type ApprovalMode = "manual" | "smart" | "off"

export const normalizeMode = (value: unknown): { readonly mode: ApprovalMode; readonly warning?: string } => {
  if (value === undefined || value === null) return { mode: "manual" }
  if (value === false) return { mode: "off" }
  if (value === true) return { mode: "manual" }
  const text = String(value).trim().toLowerCase()
  if (text === "") return { mode: "manual" }
  if (text === "manual" || text === "smart" || text === "off") return { mode: text }
  return { mode: "manual", warning: `approvals.mode '${String(value)}' is not one of manual, smart, off; using manual` }
}
