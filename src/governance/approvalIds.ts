import { createHmac, timingSafeEqual } from "node:crypto"

/** How long an approval request can be answered (docs/DESIGN.md §10). */
export const APPROVAL_LIFETIME_MS = 24 * 60 * 60 * 1000

/** The call an approval id is bound to: another key, call, tool or input makes another id. */
export interface ApprovalSubject {
  readonly keyId: string
  readonly toolCallId: string
  readonly toolName: string
  readonly input: unknown
}

/** Why an approval id does not approve a call. */
export type ApprovalProblem = "forged" | "expired"

/**
 * JSON with object keys sorted at every level, so the same input always
 * signs the same whatever order a client's JSON put its keys in.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value).sort().flatMap((name) => {
      const item = (value as Record<string, unknown>)[name]
      return item === undefined ? [] : [`${JSON.stringify(name)}:${canonicalJson(item)}`]
    })
    return `{${entries.join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

// `apr_<issued at, ms, base 36>_<HMAC-SHA256, base64url>`
const ID = /^apr_([0-9a-z]{1,11})_([A-Za-z0-9_-]{43})$/

/**
 * Approval ids (docs/DESIGN.md §10): an HMAC under `PARLEY_SECRET_KEY` over
 * the key id, the tool call id, the tool name, the input (canonical JSON)
 * and the instant it was issued, so an id approves that one call for 24
 * hours and cannot be moved to another call, input or key. The MAC key is
 * derived from the secret so that it signs nothing else parley signs.
 */
export const makeApprovalIds = (secret: Buffer) => {
  const key = createHmac("sha256", secret).update("parley tool approvals v1").digest()
  const mac = (subject: ApprovalSubject, issuedAt: number): Buffer =>
    createHmac("sha256", key)
      .update(canonicalJson([subject.keyId, subject.toolCallId, subject.toolName, subject.input ?? null, issuedAt]))
      .digest()

  return {
    issue: (subject: ApprovalSubject, now: number): string =>
      `apr_${now.toString(36)}_${mac(subject, now).toString("base64url")}`,

    /** Why `id` does not approve the call at `now`, or undefined when it does. */
    check: (id: string, subject: ApprovalSubject, now: number): ApprovalProblem | undefined => {
      const parts = ID.exec(id)
      if (parts === null) return "forged"
      const issuedAt = Number.parseInt(parts[1]!, 36)
      const given = Buffer.from(parts[2]!, "base64url")
      if (!timingSafeEqual(given, mac(subject, issuedAt))) return "forged"
      return now - issuedAt > APPROVAL_LIFETIME_MS ? "expired" : undefined
    },

    /** When an id stops being honoured, whether or not it was used; undefined for no id of ours. */
    expiresAt: (id: string): Date | undefined => {
      const parts = ID.exec(id)
      return parts === null ? undefined : new Date(Number.parseInt(parts[1]!, 36) + APPROVAL_LIFETIME_MS)
    }
  }
}

export type ApprovalIds = ReturnType<typeof makeApprovalIds>
