import { hash, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * API key secrets: `pk_` + 32 random bytes in base64url. Only the SHA-256 of a
 * secret is stored; a fast hash is right here because the secret has 256 bits
 * of entropy, so there is nothing to brute-force.
 */
const secretPrefix = "pk_"
const secretBytes = 32

/** Characters of the secret that may be shown (in `keys list`, logs). */
const displayPrefixLength = 12

export const generateSecret = (): string => secretPrefix + randomBytes(secretBytes).toString("base64url")

// One-shot `hash`: no Hash object per call; it runs on every request (a third of createHash's cost, BENCHMARKS.md).
export const hashSecret = (secret: string): string => hash("sha256", secret, "hex")

export const displayPrefix = (secret: string): string => secret.slice(0, displayPrefixLength)

export const newKeyId = (): string => `key_${randomBytes(8).toString("hex")}`

// Generous bounds: anything outside them cannot be a key we issued, so it is
// rejected without a lookup (and without filling the lookup cache).
const secretShape = /^pk_[A-Za-z0-9_-]{32,128}$/

export const looksLikeSecret = (token: string): boolean => secretShape.test(token)

/** Constant-time equality of two hex digests. */
export const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a, "hex")
  const right = Buffer.from(b, "hex")
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right)
}

export const newAccountId = (): string => `acct_${randomBytes(8).toString("hex")}`
