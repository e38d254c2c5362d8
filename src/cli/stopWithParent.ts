/**
 * npm runs `npx parley …` and `npm run parley …` as `sh -c "parley …"`, and
 * passes SIGTERM and SIGINT to that shell alone; Debian's `sh` (dash) waits
 * for its command rather than exec'ing it, dies of the signal and leaves this
 * process serving: `kill $!` after `npx parley demo --provider &` stopped npm
 * and kept port 9100 taken. The shell's death reaches us only as a new parent
 * (we are handed to init), so under npm a changed parent stops parley as
 * SIGTERM would (a server drains, the demo's provider closes its port).
 *
 * Only under npm (its scripts set `npm_lifecycle_event`): started otherwise,
 * a parent that leaves is a deliberate detach (`setsid -f`, `(parley serve &)`).
 */
const CHECK_EVERY_MS = 200

export const stopWithParent = (): void => {
  if (process.env.npm_lifecycle_event === undefined) return
  const parent = process.ppid
  const check = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(check)
    process.kill(process.pid, "SIGTERM")
  }, CHECK_EVERY_MS)
  // Never what keeps a finished command (`parley keys list`) alive.
  check.unref()
}
