/**
 * What the model is told when a command may not run. Every denial says not to
 * retry: silence is not consent, and a refusal is not an obstacle to route around.
 */
export const hardlineMessage = (description: string) =>
  `BLOCKED (hardline): ${description}. This command is on the unconditional blocklist and never runs, whatever the approval mode or backend. Do not retry it or any variant of it.`

export const sudoGuardMessage = () =>
  "BLOCKED: sudo password guessing via stdin (sudo -S). Do not pipe passwords into sudo; ask the user to run the privileged step themselves."

export const userDenyMessage = (glob: string) =>
  `BLOCKED: this command matches the user-defined deny rule '${glob}'. Do not retry it.`

export const ruleDenyMessage = (pattern: string, reason: string | undefined) =>
  `BLOCKED: this command matches the deny rule ${pattern}${reason === undefined ? "" : ` (${reason})`}. Do not retry it.`

// No command to paste here: allowlist changes are the operator's act, and a model that is handed one will run it.
export const nonInteractiveMessage = (description: string) =>
  `BLOCKED: ${description}. This needs approval and nobody is present to approve it (non-interactive run), so it was not done. The user has NOT consented; do not retry it or work around it. If it is needed, stop and ask the user to do it or to approve it themselves.`

export const userDeniedMessage = (description: string, reason: string | undefined) =>
  `BLOCKED: User denied this command (${description}). The user has NOT consented; do not retry it or work around it.${reason === undefined ? "" : ` Reason given by the user: "${reason}".`}`

export const timeoutMessage = (description: string) =>
  `BLOCKED: Command timed out without user response (${description}). Silence is not consent; do not retry it.`
