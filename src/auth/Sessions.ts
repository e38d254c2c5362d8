import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { Account } from "../domain/Account.ts"
import type { SignInFailed } from "./accountErrors.ts"
import { Accounts } from "./Accounts.ts"
import { InvalidAdminCredentials } from "./adminErrors.ts"
import { SecretKey } from "./SecretKey.ts"
import { SignInThrottle } from "./SignInThrottle.ts"

/** Console sessions last 12 hours (docs/DESIGN.md §6). */
export const SESSION_SECONDS = 12 * 3600

export interface Session {
  readonly accountId: string
  readonly csrfToken: string
}

const Timestamp = Schema.Union([Schema.Date, Schema.DateFromString])
const decodeRows = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ account_id: Schema.String, expires_at: Timestamp }))
)

const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex")

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Console sessions: a random token in the cookie, only its SHA-256 stored
 * (so a database leak opens no session), and a CSRF token derived from it
 * with `PARLEY_SECRET_KEY` (so it needs no storage and no instance can forge
 * it without the key).
 */
export class Sessions extends Context.Service<Sessions, {
  /** Slowed per email and per address after failures (`SignInThrottle`). */
  readonly signIn: (input: { email: string; password: string; address: string }) => Effect.Effect<
    { readonly token: string; readonly csrfToken: string; readonly account: Account },
    SignInFailed
  >
  /** The live session of an active account, or a 401. */
  readonly verify: (token: string) => Effect.Effect<Session, InvalidAdminCredentials>
  readonly checkCsrf: (token: string, csrfToken: string | undefined) => boolean
  readonly signOut: (token: string) => Effect.Effect<void>
}>()("parley/auth/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* Accounts
      const key = Redacted.value(yield* SecretKey)
      const throttle = yield* SignInThrottle
      const csrfFor = (token: string) => createHmac("sha256", key).update(`csrf:${token}`).digest("base64url")

      const signIn = Effect.fn("Sessions.signIn")(
        function*(input: { email: string; password: string; address: string }) {
          yield* Effect.sleep(yield* throttle.delayFor(input))
          const account = yield* accounts.verifySignIn(input.email, input.password).pipe(
            Effect.tapError(() => throttle.failed(input))
          )
          yield* throttle.succeeded(input)
          const token = randomBytes(32).toString("base64url")
          const now = yield* Clock.currentTimeMillis
          // Expired sessions go as new ones come, so the table stays small without a sweeper.
          yield* Effect.orDie(sql`DELETE FROM console_sessions WHERE expires_at <= ${new Date(now)}`)
          yield* Effect.orDie(sql`INSERT INTO console_sessions ${
            sql.insert({
              token_hash: tokenHash(token),
              account_id: account.id,
              created_at: new Date(now),
              expires_at: new Date(now + SESSION_SECONDS * 1000)
            })
          }`)
          return { token, csrfToken: csrfFor(token), account }
        }
      )

      const verify = Effect.fn("Sessions.verify")(function*(token: string) {
        const rows = yield* Effect.orDie(
          Effect.flatMap(
            sql`SELECT account_id, expires_at FROM console_sessions WHERE token_hash = ${tokenHash(token)}`,
            decodeRows
          )
        )
        const row = rows[0]
        if (row === undefined || row.expires_at.getTime() <= (yield* Clock.currentTimeMillis)) {
          return yield* new InvalidAdminCredentials()
        }
        const account = yield* accounts.get(row.account_id).pipe(
          Effect.mapError(() => new InvalidAdminCredentials())
        )
        // A disabled account's sessions end with it.
        if (account.status !== "active") return yield* new InvalidAdminCredentials()
        return { accountId: account.id, csrfToken: csrfFor(token) }
      })

      return Sessions.of({
        signIn,
        verify,
        checkCsrf: (token, csrfToken) => csrfToken !== undefined && sameText(csrfFor(token), csrfToken),
        signOut: (token) =>
          Effect.orDie(Effect.asVoid(sql`DELETE FROM console_sessions WHERE token_hash = ${tokenHash(token)}`))
      })
    })
  )
}
