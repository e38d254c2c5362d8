import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"

// `v1.<nonce>.<ciphertext>.<tag>`, each part base64url.
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/

/**
 * Secrets kept at rest under `PARLEY_SECRET_KEY` (docs/DESIGN.md §9):
 * AES-256-GCM with a key derived (HKDF-SHA256) for `purpose` alone, so it
 * decrypts nothing else parley keeps. `context` is bound as associated data:
 * a sealed value moved to another record or field does not open.
 */
export const makeSealer = (secret: Buffer, purpose: string) => {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `parley ${purpose} v1`, 32))
  return {
    seal: (plain: string, context: string): string => {
      const nonce = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(Buffer.from(context))
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
      return ["v1", nonce, body, cipher.getAuthTag()].map((part) =>
        typeof part === "string" ? part : part.toString("base64url")
      ).join(".")
    },
    /** The plain text, or undefined when `sealed` is not ours: another key, another context, or altered. */
    open: (sealed: string, context: string): string | undefined => {
      const parts = SEALED.exec(sealed)
      if (parts === null) return undefined
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(parts[1]!, "base64url"))
          .setAAD(Buffer.from(context))
          .setAuthTag(Buffer.from(parts[3]!, "base64url"))
        return Buffer.concat([decipher.update(Buffer.from(parts[2]!, "base64url")), decipher.final()]).toString("utf8")
      } catch {
        return undefined
      }
    }
  }
}

export type Sealer = ReturnType<typeof makeSealer>
