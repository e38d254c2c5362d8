import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { SecretKey } from "../../src/auth/SecretKey.ts"
import { APPROVAL_LIFETIME_MS, canonicalJson, makeApprovalIds } from "../../src/governance/approvalIds.ts"
import { Approvals } from "../../src/governance/Approvals.ts"
import * as Database from "../../src/store/Database.ts"
import { describePostgres, urlWithSchema, withFreshSchema } from "../store/postgres.ts"

const subject = { keyId: "key_a", toolCallId: "call_1", toolName: "bash", input: { command: "ls", cwd: "/" } }
const now = Date.UTC(2030, 0, 1)

describe("approval ids", () => {
  const ids = makeApprovalIds(randomBytes(32))
  const id = ids.issue(subject, now)

  it("approve their own call for 24 hours", () => {
    assert.isUndefined(ids.check(id, subject, now))
    // Key order in the client's JSON does not matter.
    assert.isUndefined(ids.check(id, { ...subject, input: { cwd: "/", command: "ls" } }, now + 1000))
    assert.strictEqual(ids.check(id, subject, now + APPROVAL_LIFETIME_MS + 1), "expired")
  })

  it("approve nothing else: another key, call, tool, input, secret, or an edited id", () => {
    assert.strictEqual(ids.check(id, { ...subject, keyId: "key_b" }, now), "forged")
    assert.strictEqual(ids.check(id, { ...subject, toolCallId: "call_2" }, now), "forged")
    assert.strictEqual(ids.check(id, { ...subject, toolName: "computer" }, now), "forged")
    assert.strictEqual(ids.check(id, { ...subject, input: { command: "rm -rf /", cwd: "/" } }, now), "forged")
    assert.strictEqual(makeApprovalIds(randomBytes(32)).check(id, subject, now), "forged")
    // A later issue time (to escape expiry) breaks the MAC.
    const [, , mac] = id.split("_")
    assert.strictEqual(ids.check(`apr_${(now + 1).toString(36)}_${mac}`, subject, now), "forged")
    assert.strictEqual(ids.check("aitxt-123", subject, now), "forged")
  })

  it("canonical JSON sorts keys at every level and keeps arrays in order", () => {
    assert.strictEqual(canonicalJson({ b: [2, { d: 1, c: 2 }], a: null }), `{"a":null,"b":[2,{"c":2,"d":1}]}`)
  })
})

const claims = Effect.gen(function*() {
  const approvals = yield* Approvals
  const first = approvals.ids.issue(subject, Date.now())
  const second = approvals.ids.issue({ ...subject, toolCallId: "c2" }, Date.now())
  assert.deepStrictEqual(yield* approvals.claim([first]), [])
  // One used id refuses the whole claim and records none of it.
  assert.deepStrictEqual(yield* approvals.claim([second, first]), [first])
  assert.deepStrictEqual(yield* approvals.claim([second]), [])
  assert.deepStrictEqual(yield* approvals.claim([second]), [second])
})

const secret = Layer.succeed(SecretKey, Redacted.make(randomBytes(32)))

describe("Approvals on SQLite", () => {
  it.effect("an approval id is honoured once", () =>
    claims.pipe(
      Effect.provide(Approvals.layer.pipe(
        Layer.provide(secret),
        Layer.provide(Database.layerFromUrl(Redacted.make("sqlite::memory:")))
      ))
    ))
})

describePostgres("Approvals on Postgres", () => {
  it.effect("an approval id is honoured once", () =>
    withFreshSchema((schema) =>
      claims.pipe(
        Effect.provide(Approvals.layer.pipe(
          Layer.provide(secret),
          Layer.provide(Database.layerFromUrl(Redacted.make(urlWithSchema(schema))))
        ))
      )
    ))
})
