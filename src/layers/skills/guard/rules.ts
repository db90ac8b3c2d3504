/**
 * The guard's line rules: what a skill's text must not carry, by threat
 * category. Severity decides the verdict (critical → dangerous, high →
 * caution; medium and low only inform). Patterns look for behaviour — a
 * command, a payload, an instruction to the model — not for topics, so a
 * skill that explains SSH or cron is not flagged for saying the words.
 * Gaps between key words are bounded so no pattern backtracks badly.
 */
import type { Severity, ThreatCategory } from "../../../services/Skills.js"

export interface Refined {
  readonly severity: Severity
  readonly description: string
}

export interface LineRule {
  readonly id: string
  readonly severity: Severity
  readonly category: ThreatCategory
  readonly description: string
  readonly pattern: RegExp
  /** A second look at a matching line: a lower severity, null to drop it, undefined to keep the rule's own. */
  readonly refine?: (line: string, match: string) => Refined | null | undefined
}

const rule = (
  id: string,
  severity: Severity,
  category: ThreatCategory,
  description: string,
  pattern: RegExp,
  refine?: LineRule["refine"]
): LineRule => (refine === undefined ? { id, severity, category, description, pattern } : { id, severity, category, description, pattern, refine })

/** Placeholders (`sk-xxxxxxxx…`, `AKIAEXAMPLE…`) repeat a few characters; real keys do not. */
const looksRandom = (token: string): boolean => new Set(token.replace(/^[a-z]+[-_]/i, "")).size >= 10 && !/example|placeholder|your|dummy/i.test(token)

/** Credentials sent as a header or `-u` to the API they belong to are ordinary use; anywhere else in a request they leak. */
const HEADER_ARGS = /(?:-H|--header)[=\s]+(?:"[^"\n]*"|'[^'\n]*'|\S+)|(?:-u|--user|--oauth2-bearer)[=\s]+(?:"[^"\n]*"|'[^'\n]*'|\S+)|\b(?:Authorization|headers?)\b[^\n]{0,200}/gi

const onlyInHeaders = (secret: RegExp) => (line: string): Refined | undefined =>
  secret.test(line.replace(HEADER_ARGS, " "))
    ? undefined
    : { severity: "medium", description: "sends a credential in a request header or login (check the destination is the service it belongs to)" }

/** Up to eight words between key words (the typographic apostrophe escaped, so the CLI bundle stays ASCII). */
const GAP = String.raw`(?:[\w'\u2019-]+\s+){0,8}?`
/** A shell variable whose name says it holds a secret. */
const SECRET_VAR = String.raw`\$\{?[A-Za-z_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\w*\}?`
const SECRET_VAR_RE = new RegExp(SECRET_VAR)
const SECRET_CODE_RE = /process\.env\.\w*(?:KEY|TOKEN|SECRET|PASSWORD)|os\.environ\[[^\]]*(?:KEY|TOKEN|SECRET|PASSWORD)|\$\{?[A-Za-z_]*(?:KEY|TOKEN|SECRET|PASSWORD)/
/** Output redirection into a path (`x > f`, `>> f`), not an arrow in prose (`a -> f`) or a quote block. */
const REDIRECT = String.raw`(?:>>|[\w"'\`)\]]\s*>)`
/** A destination on this machine: sending there leaks nothing. */
const NOT_LOOPBACK = String.raw`(?![^\n]{0,400}https?://(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/]|\b))`
const CREDENTIAL_FILE = String.raw`(?:~|\$HOME|\$\{HOME\})/(?:\.ssh/id_[a-z0-9]+(?!\.pub)|\.aws/credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|\.docker/config\.json|\.kube/config|\.config/gh/hosts\.yml|\.hermes(?:-effect)?/\.env)\b`
const READER = String.raw`\b(?:cat|less|more|head|tail|base64|xxd|od|strings|cp|scp|rsync|curl|tar|zip|gpg)\b`
const AGENT_CONFIG = String.raw`(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules|\.hermes(?:-effect)?/(?:config\.yaml|SOUL\.md)|\.claude/settings[\w.]*|\.codex/config[\w.]*)`

export const LINE_RULES: ReadonlyArray<LineRule> = [
  // ── exfiltration ─────────────────────────────────────────────────────────
  rule("secret_in_request", "critical", "exfiltration", "network request carrying a secret environment variable",
    new RegExp(String.raw`\b(?:curl|wget|xh|http|nc|ncat)\s${NOT_LOOPBACK}[^\n]{0,400}${SECRET_VAR}`), onlyInHeaders(SECRET_VAR_RE)),
  rule("secret_in_code_request", "critical", "exfiltration", "HTTP call in code sending a secret",
    new RegExp(String.raw`\b(?:fetch|axios(?:\.\w+)?|requests\.\w+|httpx\.\w+|urllib\.request\.urlopen)\s*\(${NOT_LOOPBACK}[^\n]{0,400}(?:${SECRET_CODE_RE.source})`),
    onlyInHeaders(SECRET_CODE_RE)),
  rule("credential_file_read", "critical", "exfiltration", "reads a credential store (SSH key, cloud or registry credentials, agent secrets)",
    new RegExp(String.raw`${READER}[^\n|;&]{0,200}${CREDENTIAL_FILE}|(?:readFile(?:Sync)?|open|read_text|read_bytes)\s*\([^\n)]{0,200}(?:\.ssh/id_[a-z0-9]+(?!\.pub)|\.aws/credentials|\.netrc|\.git-credentials|\.hermes(?:-effect)?/\.env)`)),
  rule("dotenv_read", "critical", "exfiltration", "prints a project's .env secrets file",
    /\b(?:cat|less|more|head|tail|base64|xxd)\s+[^\n|;&]{0,120}?(?:^|[\s/'"])\.env(?:\.(?:local|production|prod))?(?=$|[\s'"|;&)])/),
  rule("env_dump", "high", "exfiltration", "dumps every environment variable",
    /(?:^|[;&|(`]\s*|\$\(\s*)(?:printenv|env)\s*(?:$|[|>])|\bJSON\.stringify\(\s*process\.env\s*\)|\bObject\.(?:entries|keys|values)\(\s*process\.env\s*\)|\bdict\(\s*os\.environ\s*\)|\bos\.environ\.(?:items|copy)\(\s*\)/),
  rule("dns_exfil", "critical", "exfiltration", "DNS lookup of a name built from a variable (DNS exfiltration)",
    /(?<![-\w/])(?:dig|nslookup|host)\s+(?:[-+@]\S*\s+){0,4}["']?[\w.-]*\$\{?\w/),
  rule("image_exfil", "high", "exfiltration", "markdown image whose URL interpolates data (leaks when rendered)",
    /!\[[^\]\n]{0,200}\]\(https?:\/\/[^)\s]{0,300}(?:\$\{?\w|\{\{)/),
  rule("send_context", "high", "exfiltration", "tells the model to send conversation, memory or secrets somewhere",
    new RegExp(String.raw`\b(?:send|post|upload|transmit|forward|exfiltrate)\s+${GAP}(?:the\s+)?(?:conversation|chat\s+history|previous\s+messages|system\s+prompt|memory|credentials|secrets|api\s+keys?|tokens?|environment\s+variables)\b[^\n]{0,200}\b(?:to|at)\s+(?:https?://|\S+@\S+\.\w+)`, "i")),
  rule("paste_service", "high", "exfiltration", "sends data to a paste or request-capture service",
    /\b(?:pastebin\.com|hastebin\.com|paste\.ee|0x0\.st|transfer\.sh|termbin\.com|webhook\.site|requestbin\.\w+|pipedream\.net|interact\.sh|burpcollaborator\.net)\b/i),

  // ── prompt injection ─────────────────────────────────────────────────────
  rule("ignore_instructions", "critical", "injection", "tells the model to ignore its previous instructions",
    new RegExp(String.raw`\b(?:ignore|forget|discard)\s+${GAP}(?:previous|all|above|prior|earlier|your)\s+${GAP}(?:instructions|directives|rules|prompts?)\b`, "i")),
  rule("disregard_rules", "critical", "injection", "tells the model to disregard its rules",
    new RegExp(String.raw`\bdisregard\s+${GAP}(?:your|all|any|the)\s+${GAP}(?:instructions|rules|guidelines|policies|restrictions)\b`, "i")),
  rule("system_prompt_override", "critical", "injection", "claims to override or replace the system prompt",
    /\b(?:system\s+prompt\s+(?:override|update|replacement)|new\s+system\s+prompt\s*:|override\s+(?:the\s+|your\s+)?system\s+prompt)/i),
  rule("no_restrictions", "critical", "injection", "tells the model to act without its restrictions",
    new RegExp(String.raw`\b(?:act|behave|respond|answer|reply)\s+${GAP}(?:as\s+if|as\s+though|without)\s+${GAP}(?:you\s+have\s+no\s+|any\s+)?(?:restrictions|limitations|filters|safety\s+guidelines|guardrails|content\s+policy)\b`, "i")),
  rule("jailbreak", "critical", "injection", "jailbreak persona (DAN, developer mode, do anything now)",
    /\b(?:do\s+anything\s+now|DAN\s+mode|developer\s+mode\s+(?:enabled|output)|jailbr(?:oken|eak)\s+mode|you\s+are\s+(?:now\s+)?DAN\b)/i),
  rule("role_hijack", "high", "injection", "tries to give the model a different identity",
    /\byou\s+are\s+(?:now|no\s+longer)\s+(?:a|an|no|free|unrestricted|unfiltered|evil)\b|\bpretend\s+(?:that\s+)?(?:you\s+are|to\s+be)\s+(?:an?\s+)?(?:different|unrestricted|unfiltered|evil|malicious|human|root|admin|another)\b/i),
  rule("hide_from_user", "high", "injection", "tells the model to keep something from the user",
    new RegExp(String.raw`\b(?:do\s+not|don't|never)\s+${GAP}(?:tell|inform|show|alert|notify)\s+(?:the\s+)?user\b(?![^\n]{0,120}\b(?:unless|until|before|first|if\s+(?:they|the\s+user)\s+ask))|\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b|\bsecretly\s+(?:run|execute|send|upload|install|copy)\b`, "i")),
  rule("leak_system_prompt", "high", "injection", "asks for the system prompt to be revealed",
    new RegExp(String.raw`\b(?:output|reveal|print|repeat|show|dump|leak)\s+${GAP}(?:your\s+|the\s+)?(?:system|initial|hidden)\s+(?:prompt|instructions)\b`, "i")),
  rule("unobserved", "high", "injection", "behave differently when nobody is watching",
    /\b(?:when|if)\s+no\s*(?:one|body)\s+is\s+(?:watching|looking|monitoring)/i),
  rule("hidden_comment_instruction", "high", "injection", "instructions hidden in an HTML comment",
    /<!--[^>]{0,600}\b(?:ignore|override|system\s+prompt|secret(?:ly)?|hidden|instructions?|assistant|you\s+must)\b[^>]{0,600}-->/i),
  rule("hidden_html", "high", "injection", "invisible HTML element (display:none / hidden text)",
    /<\s*(?:div|span|p)\b[^>]{0,300}style\s*=\s*["'][^"'>]{0,300}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)/i),
  rule("fake_role_tag", "medium", "injection", "conversation role markers (fine in prompt-format docs, a classic injection otherwise)",
    /<\/?\s*(?:system|im_start|im_end)\s*>|<\|im_(?:start|end)\|>/),
  rule("agent_config_write", "critical", "persistence", "writes into an agent's instruction or config file",
    new RegExp(String.raw`(?:${REDIRECT}|\btee\s+(?:-a\s+)?|\bsed\s+(?:-[a-zA-Z]*i[a-zA-Z]*|--in-place)\b[^\n]{0,200}?\s|\b(?:cp|mv|ln\s+-sf?)\s+\S+\s+)\s*["']?[~\w./$-]{0,200}${AGENT_CONFIG}(?![\w.])`)),
  rule("agent_config_instruction", "high", "persistence", "tells the model to change an agent's instruction or config file",
    new RegExp(String.raw`(?:^\s*(?:[-*+]\s+|\d+[.)]\s+)?|[.!]\s+|\b(?:you\s+(?:must|should)|please|make\s+sure\s+to|always)\s+)(?:update|modify|edit|append\s+to|add\s+[^\n,]{0,60}?\s+to|overwrite|replace|inject\s+into)\s+[^\n,]{0,80}?${AGENT_CONFIG}`, "i")),

  // ── obfuscation ──────────────────────────────────────────────────────────
  rule("decode_and_run", "critical", "obfuscation", "decodes a payload and runs it",
    /\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:enc\s+)?-?base64\s+-d)\b[^\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\beval\s*\(?\s*["'`]?\$\(\s*(?:echo|printf)[^\n]{0,300}\|\s*base64\s+(?:-d|--decode)/),
  rule("eval_decoded", "critical", "obfuscation", "evaluates decoded or character-built code",
    /\b(?:eval|exec|Function)\s*\(\s*(?:atob|Buffer\.from|base64\.b64decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|marshal\.loads|String\.fromCharCode|''\.join|"".join)\s*\(/),
  rule("char_code_building", "high", "obfuscation", "builds strings from character codes",
    /String\.fromCharCode\(\s*(?:\d{2,3}\s*,\s*){7,}|(?:chr\(\d{2,3}\)\s*\+\s*){5,}/),
  rule("escaped_blob", "high", "obfuscation", "long run of escaped bytes",
    /(?:\\x[0-9a-fA-F]{2}){24,}|(?:\\u00[0-9a-fA-F]{2}){16,}/),
  rule("encoded_blob", "medium", "obfuscation", "long base64-looking blob",
    /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{240,}={0,2}(?![A-Za-z0-9+/=])/),

  // ── persistence ──────────────────────────────────────────────────────────
  rule("ssh_authorized_keys", "critical", "persistence", "adds a key to SSH authorized_keys",
    new RegExp(String.raw`(?:${REDIRECT}|\btee\s+(?:-a\s+)?|\b(?:cp|mv)\s+\S+\s+)\s*["']?[~\w./$-]{0,200}authorized_keys\b`)),
  rule("shell_rc_write", "high", "persistence", "appends to a shell startup file",
    /(?:>>|\btee\s+-a\s+)\s*["']?(?:~|\$HOME|\$\{HOME\})\/\.(?:bashrc|zshrc|bash_profile|bash_login|profile|zprofile|zlogin|zshenv)\b/),
  rule("cron_install", "medium", "persistence", "installs a cron job",
    /\bcrontab\s+(?!-[lr]\b)\S|\|\s*crontab\b|\/etc\/cron\.(?:d|daily|hourly|weekly)\//),
  rule("service_install", "medium", "persistence", "installs or enables a system service or launch agent",
    /\bsystemctl\s+(?:--user\s+)?enable\b|\/etc\/systemd\/system\/[\w@.-]+\.service|\blaunchctl\s+(?:load|bootstrap)\b|\/Library\/Launch(?:Agents|Daemons)\/|\/etc\/init\.d\/|\/etc\/rc\.local\b/),
  rule("sudoers_change", "critical", "persistence", "changes sudoers",
    new RegExp(String.raw`(?:${REDIRECT}|\btee\s+(?:-a\s+)?|\bvisudo\b|\b(?:cp|mv)\s+\S+\s+)\s*["']?/etc/sudoers\b|\bNOPASSWD\s*:`)),

  // ── destructive ──────────────────────────────────────────────────────────
  rule("root_delete", "critical", "destructive", "recursive delete from the filesystem root or home",
    /\brm\s+(?:-{1,2}[a-zA-Z-]+\s+){1,6}["']?(?:\/(?:\*)?|~\/?(?:\*)?|\$HOME\/?(?:\*)?|\$\{HOME\}\/?(?:\*)?)["']?(?=\s|$|[;&|)])/,
    (line) => (/\brm\s+(?:-{1,2}[a-zA-Z-]+\s+){0,5}(?:-[a-zA-Z]*[rR]|--recursive)/.test(line) ? undefined : null)),
  rule("code_root_delete", "high", "destructive", "recursive delete of an absolute path from code",
    /\b(?:shutil\.rmtree|fs\.rm(?:Sync)?|rimraf(?:\.sync)?)\s*\(\s*["'](?:\/|~)(?!tmp\b|var\/tmp\b)/),
  rule("disk_wipe", "critical", "destructive", "formats or overwrites a disk",
    /\bmkfs(?:\.\w+)?\s+(?:-\S+\s+)*\/dev\/|\bdd\s+[^\n]{0,200}\bof=\/dev\/(?:sd|nvme|hd|vd|xvd|disk|mmcblk)|>\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d)\b|\bshred\s+[^\n]{0,100}\/dev\//),
  rule("system_overwrite", "critical", "destructive", "overwrites a system file",
    new RegExp(String.raw`${REDIRECT}\s*/etc/(?:passwd|shadow|group|hosts|resolv\.conf|fstab|ssh/sshd_config)\b|\btruncate\s+-s\s*0\s+/(?:etc|usr|bin|boot)/`)),
  rule("world_writable", "medium", "destructive", "makes files world-writable",
    /\bchmod\s+(?:-R\s+)?(?:0?777|a\+w|o\+w)\b/),

  // ── reverse shells and tunnels ───────────────────────────────────────────
  rule("dev_tcp", "critical", "network", "shell redirected to a network socket (/dev/tcp)",
    /\/dev\/(?:tcp|udp)\/[\w.$-]+\/\d+/),
  rule("netcat_exec", "critical", "network", "netcat or socat handing a shell to the network",
    /\b(?:nc|ncat|netcat)\b[^\n|;]{0,120}\s-[a-z]*[ec]\s+(?:\/bin\/)?(?:ba|z|da)?sh\b|\bsocat\b[^\n]{0,200}\bexec:[^\n]{0,40}\b(?:ba|z)?sh\b|\bmkfifo\b[^\n]{0,200}\b(?:nc|ncat|netcat)\b/i),
  rule("interactive_shell_socket", "critical", "network", "interactive shell wired to a socket",
    /\b(?:ba|z)?sh\s+-i\s*[^\n]{0,20}[<>]&|\bos\.dup2\(\s*\w+\.fileno\(\)|\bpty\.spawn\([^\n]{0,40}(?:sh|bash)|\bchild_process\b[^\n]{0,200}\bnet\.(?:connect|Socket)\b/),
  rule("tunnel", "high", "network", "opens a public tunnel to this machine",
    /\b(?:ngrok\s+(?:http|tcp|start)|cloudflared\s+tunnel|lt\s+--port|localtunnel|serveo\.net|localhost\.run|bore\s+local)\b|\bssh\s+[^\n]{0,100}-R\s+(?:\d+:)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0)?:?\d+/i),

  // ── supply chain ─────────────────────────────────────────────────────────
  rule("pipe_to_shell", "critical", "supply_chain", "downloads a script and runs it unseen (curl | sh)",
    /\b(?:curl|wget|fetch|iwr|Invoke-WebRequest)\b[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\w+\s+)*)?(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:ba|z)?sh\s+-c\s+["']\$\(\s*(?:curl|wget)\b|\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?(?:python3?|node|perl|ruby)\b(?!\s+-m\s+json)|\biex\s*\(?\s*\(?\s*(?:New-Object\s+Net\.WebClient|iwr|Invoke-WebRequest)/i),
  rule("install_from_url", "high", "supply_chain", "installs a package straight from a URL or git remote",
    /\b(?:pip3?|uv\s+pip|pipx)\s+install\s+[^\n]{0,200}(?:git\+|https?:\/\/)|\bnpm\s+(?:install|i)\s+[^\n]{0,200}(?:https?:\/\/|git\+|github:)/),
  rule("unpinned_install", "medium", "supply_chain", "installs packages without pinned versions",
    /\b(?:pip3?|uv\s+pip)\s+install\s+(?![^\n]*(?:\s-[rec]\b|--requirement|--editable|==|~=|>=|<=|@))(?:-[-\w]+\s+)*[A-Za-z]|\bnpm\s+(?:install|i)\s+(?![^\n]*@(?:\d|\^|~))(?:-[-\w]+\s+)*[a-z@]/),

  // ── hard-coded credentials ───────────────────────────────────────────────
  rule("hardcoded_key", "critical", "credential_exposure", "hard-coded API key or token",
    /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,}|sk-(?:proj-|ant-(?:api\d{2}-)?)?[A-Za-z0-9_-]{32,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|xox[abprs]-[A-Za-z0-9-]{20,}|AIza[0-9A-Za-z_-]{35}|sk_live_[0-9A-Za-z]{24,}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z]{34,})\b/,
    (_line, match) => (looksRandom(match) ? undefined : null)),
  rule("private_key", "critical", "credential_exposure", "embedded private key",
    /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----/),
  rule("hardcoded_secret", "high", "credential_exposure", "secret-looking literal assigned to a key, token or password",
    /\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|password|passwd)\b["']?\s*[:=]\s*["'][A-Za-z0-9+/_=.-]{24,}["']/i,
    (_line, match) => (looksRandom(match.slice(match.search(/["'][A-Za-z0-9+/_=.-]{24,}/) + 1)) ? undefined : null)),

  // ── privilege escalation ─────────────────────────────────────────────────
  rule("setuid", "high", "privilege_escalation", "sets the setuid/setgid bit",
    /\bchmod\s+(?:-R\s+)?(?:[ugoa]*\+[rwx]*s[rwx]*|[2-7][0-7]{3})\b/),
  rule("privileged_container", "high", "privilege_escalation", "runs a privileged container or mounts the host root",
    /\bdocker\s+run\b[^\n]{0,300}(?:--privileged|-v\s+\/:\/|--pid=host)/),

  // ── traversal ────────────────────────────────────────────────────────────
  rule("deep_traversal", "high", "traversal", "climbs far out of the skill folder (../../..)",
    /(?:\.\.[\\/]){3,}/),
  rule("system_account_files", "high", "traversal", "reads system account files or another process's memory",
    /\b(?:cat|less|head|tail|cp|grep)\s+[^\n|;&]{0,60}\/etc\/(?:shadow|gshadow|sudoers)\b|\/proc\/(?:\d+|self)\/(?:environ|mem|maps)\b/),

  // ── crypto mining ────────────────────────────────────────────────────────
  rule("crypto_miner", "critical", "mining", "crypto-currency miner",
    /\b(?:xmrig|cpuminer|minerd|cgminer|ethminer|nbminer)\b|stratum\+(?:tcp|ssl):\/\//i)
]

/** Zero-width and direction-control characters that hide text from a reader. */
export const INVISIBLE_CHARACTERS: Readonly<Record<string, string>> = {
  "\u200b": "zero-width space",
  "\u200c": "zero-width non-joiner",
  "\u200d": "zero-width joiner",
  "\u2060": "word joiner",
  "\u2061": "function application",
  "\u2062": "invisible times",
  "\u2063": "invisible separator",
  "\u2064": "invisible plus",
  "\ufeff": "zero-width no-break space",
  "\u202a": "left-to-right embedding",
  "\u202b": "right-to-left embedding",
  "\u202c": "pop directional formatting",
  "\u202d": "left-to-right override",
  "\u202e": "right-to-left override",
  "\u2066": "left-to-right isolate",
  "\u2067": "right-to-left isolate",
  "\u2068": "first strong isolate",
  "\u2069": "pop directional isolate"
}

/** Also the Unicode "tag" characters (U+E0000–E007F), which smuggle invisible ASCII. */
export const INVISIBLE = /[\u200b-\u200d\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\u{E0000}-\u{E007F}]/u
