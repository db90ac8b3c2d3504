/**
 * Commands that destroy infrastructure or a service's data rather than files: what they remove lives in a cloud
 * account, a cluster, a container engine or a database server, out of reach of any undo on this machine.
 * Hermes' table has none of them; listing, planning and dry runs stay quiet.
 */
import { D } from "../descriptions.js"
import type { CmdView } from "../ruleInput.js"
import type { Rule } from "./engine.js"
import { argv, hasFlag, operands, runsAs } from "./operands.js"
import { lookupTable } from "../../../../lib/lookupTable.js"

const has = (args: ReadonlyArray<string>, ...flags: ReadonlyArray<string>): boolean =>
  args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)))
const DRY = ["--dry-run", "--dryrun", "--server-dry-run"]

const VALUED: Readonly<Record<string, ReadonlySet<string>>> = lookupTable({
  kubectl: new Set(["-n", "--namespace", "--context", "-l", "--selector", "--kubeconfig", "-o", "--output", "-f", "--filename"]),
  docker: new Set(["-H", "--host", "--context", "-c", "--config", "-l", "--log-level"]),
  aws: new Set(["--profile", "--region", "--output", "--endpoint-url", "--query"]),
  gcloud: new Set(["--project", "--account", "--configuration", "--format", "--zone", "--region"]),
  az: new Set(["--subscription", "-o", "--output", "--query", "-g", "--resource-group"])
})

/** The words that name what a command does (its operands, git-style subcommands first), lower-cased. */
const verbs = (c: CmdView, tool: string): ReadonlyArray<string> => operands(argv(c), VALUED[tool]).map((w) => w.toLowerCase())

const destroys = (c: CmdView, i: number): boolean => {
  const args = argv(c)
  if (has(args, ...DRY)) return false
  if (runsAs(c, i, ["terraform", "tofu", "terragrunt"])) {
    const [verb, sub] = verbs(c, "terraform")
    return verb === "destroy" || (verb === "apply" && has(args, "-destroy", "--destroy")) || (verb === "state" && sub === "rm") ||
      (verb === "workspace" && sub === "delete")
  }
  if (runsAs(c, i, ["kubectl", "oc", "k3s"])) return verbs(c, "kubectl").includes("delete") || verbs(c, "kubectl")[0] === "drain"
  if (runsAs(c, i, ["helm"])) return ["uninstall", "delete", "del", "un"].includes(verbs(c, "kubectl")[0] ?? "")
  if (runsAs(c, i, ["docker", "podman", "nerdctl"])) {
    const [verb, sub] = verbs(c, "docker")
    const force = hasFlag(args, "f", "--force") || hasFlag(args, "v", "--volumes")
    if (verb === "system" || verb === "volume" || verb === "image" || verb === "container" || verb === "network" || verb === "builder") {
      return sub === "prune" || sub === "rm" || sub === "remove" || (verb === "system" && sub === "reset")
    }
    if (verb === "compose") return verbs(c, "docker").includes("down") && (hasFlag(args, "v", "--volumes") || has(args, "--rmi"))
    return (verb === "rm" || verb === "rmi") && force
  }
  if (runsAs(c, i, ["aws"])) {
    const [service, verb] = verbs(c, "aws")
    if (service === "s3") return verb === "rb" || (verb === "rm" && has(args, "--recursive")) || (verb === "sync" && has(args, "--delete"))
    return /^(?:delete|terminate|remove|deregister|purge)-/.test(verb ?? "")
  }
  if (runsAs(c, i, ["gcloud", "az"])) return verbs(c, c.name).some((w) => w === "delete" || w === "purge")
  if (runsAs(c, i, ["gsutil"])) return verbs(c, "gsutil")[0] === "rb"
  if (runsAs(c, i, ["redis-cli", "valkey-cli", "keydb-cli"])) return args.some((a) => /^(?:flushall|flushdb)$/i.test(a))
  // The shell's evaluated script: dropping a database or a collection, or deleting every document.
  if (runsAs(c, i, ["mongosh", "mongo"])) return args.some((a) => /\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\.(?:deleteMany|remove)\s*\(\s*\{\s*\}\s*\)/.test(a))
  return runsAs(c, i, ["dropdb", "dropuser"])
}

export const infrastructureRules: ReadonlyArray<Rule> = [
  {
    kind: "word",
    description: D.infraDelete,
    on: ["terraform", "tofu", "terragrunt", "kubectl", "oc", "k3s", "helm", "docker", "podman", "nerdctl", "aws", "gcloud", "az", "gsutil", "redis", "valkey", "keydb", "mongosh", "mongo", "dropdb", "dropuser"],
    at: "any",
    test: (_v, c, i) => destroys(c, i)
  }
]
