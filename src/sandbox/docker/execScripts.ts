import type { SandboxLimits } from "../SandboxSettings.ts"

/**
 * The bash that runs a command in a sandbox's container (an exec of its
 * own), and the container's own first program. Every process of a command
 * carries `PARLEY_RUN=<token>` in its environment, inherited by whatever it
 * starts, new sessions and process groups included: that is how they are
 * found to stop them, whoever started them. Finding and killing them forks
 * nothing (bash builtins), so it works in a sandbox at its pids limit.
 */

// Kills every process but this shell whose environment has PARLEY_RUN=<a token matching the pattern $1>, until
// none is left (a fork bomb forks between two passes; its pids limit bounds it). Zombies and processes already
// gone fail `read`. One line, so that the script `eval`ed after it keeps its own line numbers.
const sweep = "sweep() { local d p v found round; for round in 1 2 3 4 5 6 7 8 9 10; do found=; " +
  "for d in /proc/[0-9]*; do p=${d#/proc/}; [ \"$p\" = \"$BASHPID\" ] && continue; " +
  "while IFS= read -r -d '' v; do if [[ $v == PARLEY_RUN=$1 ]]; then kill -KILL \"$p\"; found=1; break; fi; " +
  "done < \"$d/environ\"; done 2>/dev/null; [ -z \"$found\" ] && return; done; }"

// The command's stdin ($1 bytes of fd 3, the exec's stdin), then its end; then fd 3 is watched until the
// gateway closes its side, which stops the command still running (its timeout, its output cap, a cancelled
// request, the gateway gone), or until the command (this shell's parent) has ended.
const feed = "feed() { [ \"$1\" = 0 ] || head -c \"$1\" <&3; exec >&- 2>/dev/null; local parent; " +
  "read -r _ _ _ parent _ < /proc/self/stat; while kill -0 \"$parent\"; do " +
  "IFS= read -r -t 1 -n 1 -d '' _ <&3; if [ $? = 1 ]; then kill -0 \"$parent\" && sweep \"$PARLEY_RUN\"; exit; fi; done; }"

// The command, in a subshell: a short script read by bash itself (byte by byte from a pipe, fine for a few KiB;
// a long one by head), then its stdin fed by `feed`, then the program exec'd or the script eval'd.
const command = "( " +
  "[ $# -gt 0 ] || if [ $s -lt 16384 ]; then LC_ALL=C IFS= read -r -N $s c; else c=$(head -c $s); fi; " +
  "exec 3<&0 < <(feed $i) 3<&-; unset -f sweep feed; unset -v s i; [ $# -gt 0 ] && exec \"$@\"; eval \"$c\" )"

/**
 * Runs `"$@"`, or without arguments a bash script of any length (an
 * argument is at most 128 KiB), read from stdin as `frame` lays it out, as
 * `bash -c` would (`$0` is `/bin/bash`, the script's lines are numbered from
 * 1: this is all one line). The kernel's OOM killer takes commands before
 * the container's first process (a display server, say). Unless
 * `keepBackground` (desktops, whose programs outlive their command), what
 * the command left running ends with it, as in a `local` jail. Spawns as
 * few processes as it can (a command's cost is mostly theirs): the command's
 * subshell and `feed`'s.
 */
export const runScript = (limits: SandboxLimits, keepBackground: boolean): string =>
  [
    sweep,
    feed,
    "echo 1000 2>/dev/null > /proc/self/oom_score_adj",
    `ulimit -t ${limits.cpuSeconds} -f ${Math.floor(limits.fileSizeBytes / 1024)} -n ${limits.openFiles}`,
    "IFS=' ' read -r s i",
    // Quiet: a command its stop killed is not this shell's to report.
    `${command} <&0 & { wait $!; } 2>/dev/null`,
    "status=$?",
    ...(keepBackground ? [] : ["sweep \"$PARLEY_RUN\""]),
    "exit $status"
  ].join("; ")

/**
 * What `runScript` reads on stdin: the script's and the stdin's lengths in
 * bytes on one line, the script (none for a program), the command's stdin.
 * The exec's stdin then stays open: closing it stops the command.
 */
export const frame = (script: string | undefined, stdin: Uint8Array | undefined): Buffer => {
  const code = Buffer.from(script ?? "", "utf8")
  const input = stdin ?? new Uint8Array(0)
  return Buffer.concat([Buffer.from(`${code.length} ${input.length}\n`), code, input])
}

/** The signal that makes the container's first program (`supervisorScript`) stop every command in it. */
export const STOP_ALL_SIGNAL = "SIGUSR1"

/**
 * The container's first program after the engine's init: runs `"$@"` (the
 * display server, or a sleep) for the container's life and, on
 * `STOP_ALL_SIGNAL` (forwarded by the init), stops every command in the
 * container: the way out should a command's own stop not end it.
 */
export const supervisorScript = [
  sweep,
  "trap 'sweep \"*\"' USR1",
  "\"$@\" &",
  "main=$!",
  // `wait` returns early for a trapped signal; the loop waits again until the main program has ended.
  "while :; do wait $main; status=$?; kill -0 $main 2>/dev/null || exit $status; done"
].join("\n")
