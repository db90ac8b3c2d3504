/**
 * The kernel's and devices' trees. A file tool never writes, moves or deletes
 * anything there (after symlinks are resolved): `/dev/null` replaced by a
 * regular file, or a write to `/proc/sysrq-trigger`, breaks the machine.
 */
const SYSTEM_TREES: ReadonlyArray<string> = ["/dev", "/proc", "/sys"]

export const inSystemTree = (path: string): boolean => SYSTEM_TREES.some((dir) => path === dir || path.startsWith(`${dir}/`))
