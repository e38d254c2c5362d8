import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { DEFAULT_ACCOUNT_ID } from "../domain/Account.ts"
import type { ApiKey, KeyStatus } from "../domain/ApiKey.ts"
import type { Limits } from "../domain/Limits.ts"
import { ChangeFeed } from "../store/ChangeFeed.ts"
import * as Database from "../store/Database.ts"
import {
  type AuthServiceUnavailable,
  InvalidApiKey,
  InvalidAuthorizationFormat,
  KeyNotFound,
  KeyRevoked,
  MissingAuthorization,
  type Unauthenticated
} from "./authErrors.ts"
import { type IntrospectionSettings, makeIntrospection } from "./Introspection.ts"
import { makeKeyLookups } from "./keyLookups.ts"
import { type KeyChanges, KeyStore, type StoredKey } from "./KeyStore.ts"
import { publicView, viewOf } from "./keyViews.ts"
import { displayPrefix, generateSecret, hashSecret, looksLikeSecret, newKeyId, sameHash } from "./secrets.ts"

export interface ApiKeysOptions {
  /**
   * How long a lookup by secret hash (found or not) is trusted without asking
   * the database. Changes announced on the change feed drop entries at once;
   * the others (the CLI on SQLite, any change while Postgres `LISTEN` is down)
   * are seen within this time, which must stay at 5 s or less (docs/DESIGN.md §4).
   */
  readonly cacheTtl?: Duration.Input | undefined
  /** Most lookups kept at once, so random bad keys cannot grow memory. */
  readonly cacheCapacity?: number | undefined
  /** `last_used_at` is written at most once per this interval per key. */
  readonly lastUsedInterval?: Duration.Input | undefined
  /** Tokens that are not local keys are checked here (docs/DESIGN.md §6); without it they are refused. */
  readonly introspection?: IntrospectionSettings | undefined
}

export interface NewKey {
  readonly name: string
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  /** Tools that wait for a person (docs/DESIGN.md §10); default none. */
  readonly approvalRequired?: ReadonlyArray<string> | undefined
  /** docs/DESIGN.md §11; default none. */
  readonly limits?: Limits | undefined
  readonly expiresAt?: Date | undefined
  /** Default: the `default` account. */
  readonly accountId?: string | undefined
}

const bearer = /^Bearer +(\S+) *$/i

/** Which secret of the key `secretHash` is, if it still works at `now`. */
const secretWorks = (key: StoredKey, secretHash: string, now: number): boolean =>
  sameHash(key.secretHash, secretHash) ||
  (key.previousSecretHash !== null && key.previousExpiresAt !== null && key.previousExpiresAt.getTime() > now &&
    sameHash(key.previousSecretHash, secretHash))

export class ApiKeys extends Context.Service<ApiKeys, {
  /**
   * From the raw Authorization header value. Fails with the spec's exact 401
   * messages, or 503 when the external authentication service cannot answer.
   * The key's allow-lists are the effective ones (key ∩ account).
   * `apiKey` is an `x-api-key` header's value, for the routes that take one
   * (Anthropic's clients send it): read only when Authorization is absent.
   */
  readonly authenticate: (
    authorization: string | undefined,
    apiKey?: string | undefined
  ) => Effect.Effect<ApiKey, Unauthenticated | AuthServiceUnavailable>
  readonly create: (input: NewKey) => Effect.Effect<{ key: ApiKey; secret: string }>
  /** Every key, or one account's (as stored: not narrowed by the account). */
  readonly list: (accountId?: string) => Effect.Effect<ReadonlyArray<ApiKey>>
  readonly get: (id: string) => Effect.Effect<ApiKey, KeyNotFound>
  readonly update: (id: string, changes: KeyChanges) => Effect.Effect<ApiKey, KeyNotFound>
  /** Revocation is final: a revoked key cannot be activated or deactivated. */
  readonly setStatus: (id: string, status: KeyStatus) => Effect.Effect<ApiKey, KeyNotFound | KeyRevoked>
  /**
   * New secret for the same key id (allow-lists kept). The old secret keeps
   * working for `graceSeconds` (default 0: it stops at once).
   */
  readonly rotate: (
    id: string,
    graceSeconds?: number
  ) => Effect.Effect<{ key: ApiKey; secret: string }, KeyNotFound | KeyRevoked>
}>()("parley/auth/ApiKeys") {
  static readonly layerWith = (options: ApiKeysOptions) =>
    Layer.effect(
      ApiKeys,
      Effect.gen(function*() {
        const store = yield* KeyStore
        const feed = yield* ChangeFeed
        const scope = yield* Effect.scope
        const ttl = Duration.fromInputUnsafe(options.cacheTtl ?? "1 second")
        const lastUsedIntervalMs = Duration.toMillis(Duration.fromInputUnsafe(options.lastUsedInterval ?? "1 minute"))
        const introspect = options.introspection === undefined ? undefined : makeIntrospection(options.introspection)

        const lookup = yield* makeKeyLookups(store, feed, { ttl, capacity: options.cacheCapacity ?? 10_000 })
        const lastWritten = new Map<string, number>()

        const recordUse = (key: StoredKey, now: number) => {
          const last = Math.max(lastWritten.get(key.id) ?? 0, key.lastUsedAt?.getTime() ?? 0)
          if (now - last < lastUsedIntervalMs) return Effect.void
          lastWritten.set(key.id, now)
          return store.touch(key.id, new Date(now)).pipe(
            Effect.catchCause((cause) =>
              Effect.logWarning("Could not record API key use", cause).pipe(Effect.annotateLogs({ keyId: key.id }))
            ),
            Effect.forkIn(scope),
            Effect.asVoid
          )
        }

        // Untraced: a span costs ~20 µs a call, and this runs on every request (BENCHMARKS.md).
        const authenticate = Effect.fnUntraced(function*(authorization: string | undefined, apiKey?: string) {
          const hasAuthorization = authorization !== undefined && authorization.trim() !== ""
          const token = hasAuthorization ? bearer.exec(authorization)?.[1] : apiKey?.trim()
          if (hasAuthorization && token === undefined) return yield* new InvalidAuthorizationFormat()
          if (token === undefined || token === "") return yield* new MissingAuthorization()
          // Only tokens that cannot be local keys go out: an unknown `pk_…` is never sent to a third party.
          if (!looksLikeSecret(token)) {
            return introspect === undefined ? yield* new InvalidApiKey() : yield* introspect(token)
          }
          const secretHash = hashSecret(token)
          const found = yield* lookup(secretHash)
          const now = yield* Clock.currentTimeMillis
          if (Option.isNone(found) || !secretWorks(found.value, secretHash, now)) return yield* new InvalidApiKey()
          const key = found.value
          if (key.status !== "active" || key.accountStatus !== "active") return yield* new InvalidApiKey()
          if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return yield* new InvalidApiKey()
          yield* recordUse(key, now)
          return viewOf(key)
        })

        const create = Effect.fn("ApiKeys.create")(function*(input: NewKey) {
          const secret = generateSecret()
          const key: StoredKey = {
            id: newKeyId(),
            accountId: input.accountId ?? DEFAULT_ACCOUNT_ID,
            name: input.name,
            prefix: displayPrefix(secret),
            secretHash: hashSecret(secret),
            previousSecretHash: null,
            previousExpiresAt: null,
            status: "active",
            allowedModels: [...input.allowedModels],
            allowedTools: [...input.allowedTools],
            approvalRequired: [...(input.approvalRequired ?? [])],
            limits: input.limits ?? {},
            createdAt: new Date(yield* Clock.currentTimeMillis),
            lastUsedAt: null,
            expiresAt: input.expiresAt ?? null
          }
          yield* Effect.orDie(store.insert(key))
          yield* feed.publish("keys", key.id)
          return { key: publicView(key), secret }
        })

        const stored = (id: string) =>
          Effect.flatMap(
            Effect.orDie(store.get(id)),
            (found) => Option.isNone(found) ? Effect.fail(new KeyNotFound({ id })) : Effect.succeed(found.value)
          )

        const update = Effect.fn("ApiKeys.update")(function*(id: string, changes: KeyChanges) {
          const updated = yield* Effect.orDie(store.update(id, changes))
          if (Option.isNone(updated)) return yield* new KeyNotFound({ id })
          yield* feed.publish("keys", id)
          return publicView(updated.value)
        })

        const setStatus = Effect.fn("ApiKeys.setStatus")(function*(id: string, status: KeyStatus) {
          const before = yield* stored(id)
          if (before.status === "revoked" && status !== "revoked") return yield* new KeyRevoked({ id })
          const updated = yield* Effect.orDie(store.setStatus(id, status))
          if (Option.isNone(updated)) return yield* new KeyNotFound({ id })
          yield* feed.publish("keys", id)
          return publicView(updated.value)
        })

        const rotate = Effect.fn("ApiKeys.rotate")(function*(id: string, graceSeconds = 0) {
          if ((yield* stored(id)).status === "revoked") return yield* new KeyRevoked({ id })
          const secret = generateSecret()
          const now = yield* Clock.currentTimeMillis
          const previousUntil = graceSeconds > 0 ? new Date(now + graceSeconds * 1000) : null
          const replaced = yield* Effect.orDie(
            store.replaceSecret(id, hashSecret(secret), displayPrefix(secret), previousUntil)
          )
          if (Option.isNone(replaced)) return yield* new KeyNotFound({ id })
          yield* feed.publish("keys", id)
          return { key: publicView(replaced.value), secret }
        })

        return ApiKeys.of({
          authenticate,
          create,
          list: (accountId) =>
            Effect.orDie(store.list(accountId)).pipe(
              Effect.map((keys) => keys.map(publicView)),
              Effect.withSpan("ApiKeys.list")
            ),
          get: (id) => Effect.map(stored(id), publicView),
          update,
          setStatus,
          rotate
        })
      })
    ).pipe(Layer.provide(KeyStore.layer))

  /** Requires a migrated `SqlClient` (see `store/Database.ts`). */
  static readonly layer = ApiKeys.layerWith({})

  /** As configured: with introspection when `PARLEY_AUTH_INTROSPECTION_URL` is set. */
  static readonly layerConfigured = Layer.unwrap(
    Effect.map(Effect.service(AppConfig), (config) =>
      ApiKeys.layerWith({
        cacheTtl: config.keyCacheTtlMs === undefined ? undefined : Duration.millis(config.keyCacheTtlMs),
        introspection: config.introspectionUrl === undefined
          ? undefined
          : { url: config.introspectionUrl, token: config.introspectionToken }
      }))
  )

  /** The real service over a private in-memory SQLite database, for tests. */
  static readonly layerTest = ApiKeys.layer.pipe(Layer.provide(Layer.orDie(Database.layerFromUrl("sqlite::memory:"))))
}
