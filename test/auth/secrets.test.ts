import { describe, expect, it } from "vitest"
import { hashSecret, sameHash } from "../../src/auth/secrets.ts"

describe("hashSecret", () => {
  // Stored keys hold this digest: any change of function would lock every existing key out.
  it("is the SHA-256 of the secret's UTF-8 bytes, in lower-case hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(hashSecret("pk_é")).toBe("4f3ef6c3c05071568f6a9db0eb95641b825f5977fb01c3e039ee472034e552f1")
  })

  it("matches itself and no other secret's digest", () => {
    expect(sameHash(hashSecret("pk_a"), hashSecret("pk_a"))).toBe(true)
    expect(sameHash(hashSecret("pk_a"), hashSecret("pk_b"))).toBe(false)
  })
})
