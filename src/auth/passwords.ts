import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

/**
 * Console passwords, hashed with scrypt from node:crypto (docs/DESIGN.md §1:
 * never a fast hash). Stored as `scrypt$N$r$p$salt$hash` (base64url), so the
 * cost can rise later without breaking stored hashes.
 */
const N = 1 << 15
const r = 8
const p = 1
const KEY_BYTES = 32
// scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, so leave room.
const MAX_MEMORY = 64 * 1024 * 1024

const derive = (password: string, salt: Buffer, cost: { n: number; r: number; p: number }) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password, salt, KEY_BYTES, { N: cost.n, r: cost.r, p: cost.p, maxmem: MAX_MEMORY }, (error, key) => {
      // Parameters are ours (stored hashes we wrote), so a failure here is a defect.
      resume(error === null ? Effect.succeed(key) : Effect.die(error))
    })
  })

export const hashPassword = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(16)
  return Effect.map(
    derive(password, salt, { n: N, r, p }),
    (key) => `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`
  )
}

/** Constant-time check of `password` against a stored hash; false for anything malformed. */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, n, rr, pp, salt, key] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || key === undefined) return Effect.succeed(false)
  const expected = Buffer.from(key, "base64url")
  return Effect.map(
    derive(password, Buffer.from(salt, "base64url"), { n: Number(n), r: Number(rr), p: Number(pp) }),
    (actual) => actual.length === expected.length && timingSafeEqual(actual, expected)
  )
}

/**
 * A hash no password matches, checked when the email is unknown so a sign-in
 * takes as long whether or not the account exists.
 */
export const decoyHash: Effect.Effect<string> = Effect.cached(hashPassword(randomBytes(24).toString("hex"))).pipe(
  Effect.runSync
)

/** At least this many characters (NIST SP 800-63B's floor). */
export const MIN_PASSWORD_LENGTH = 8
