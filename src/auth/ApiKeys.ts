import { Cache, Clock, Context, Duration, Effect, Exit, Layer, Option } from "effect"
import type { ApiKey, KeyStatus } from "../domain/ApiKey.ts"
import * as Database from "../store/Database.ts"
import {
  InvalidApiKey,
  InvalidAuthorizationFormat,
  KeyNotFound,
  MissingAuthorization,
  type Unauthenticated
} from "./authErrors.ts"
import { KeyStore, type StoredKey } from "./KeyStore.ts"
import { displayPrefix, generateSecret, hashSecret, looksLikeSecret, newKeyId, sameHash } from "./secrets.ts"

export interface ApiKeysOptions {
  /**
   * How long a lookup by secret hash (found or not) is trusted without asking
   * the database. Changes made elsewhere (the CLI, another server) are seen
   * within this time; keep it at 2 s or less so revocation lands within 5 s.
   */
  readonly cacheTtl?: Duration.Input | undefined
  /** Most lookups kept at once, so random bad keys cannot grow memory. */
  readonly cacheCapacity?: number | undefined
  /** `last_used_at` is written at most once per this interval per key. */
  readonly lastUsedInterval?: Duration.Input | undefined
}

const bearer = /^Bearer +(\S+) *$/i

const publicView = ({ secretHash: _, ...key }: StoredKey): ApiKey => key

export class ApiKeys extends Context.Service<ApiKeys, {
  /** From the raw Authorization header value. Fails with the spec's exact 401 messages. */
  readonly authenticate: (authorization: string | undefined) => Effect.Effect<ApiKey, Unauthenticated>
  readonly create: (input: {
    name: string
    allowedModels: ReadonlyArray<string>
    allowedTools: ReadonlyArray<string>
    expiresAt?: Date | undefined
  }) => Effect.Effect<{ key: ApiKey; secret: string }>
  readonly list: Effect.Effect<ReadonlyArray<ApiKey>>
  readonly get: (id: string) => Effect.Effect<ApiKey, KeyNotFound>
  /** A revoked key stays revoked: activating or deactivating it changes nothing. */
  readonly setStatus: (id: string, status: KeyStatus) => Effect.Effect<ApiKey, KeyNotFound>
  /** New secret for the same key id (allow-lists kept); the old secret stops working. */
  readonly rotate: (id: string) => Effect.Effect<{ key: ApiKey; secret: string }, KeyNotFound>
}>()("parley/auth/ApiKeys") {
  static readonly layerWith = (options: ApiKeysOptions) =>
    Layer.effect(
      ApiKeys,
      Effect.gen(function*() {
        const store = yield* KeyStore
        const scope = yield* Effect.scope
        const ttl = Duration.fromInputUnsafe(options.cacheTtl ?? "1 second")
        const lastUsedIntervalMs = Duration.toMillis(Duration.fromInputUnsafe(options.lastUsedInterval ?? "1 minute"))

        // Store failures are unexpected here: they become defects (a 500), are
        // never cached, and the next request asks the database again.
        const lookups = yield* Cache.makeWith(
          (secretHash: string) => Effect.orDie(store.findByHash(secretHash)),
          {
            capacity: options.cacheCapacity ?? 10_000,
            timeToLive: (exit) => Exit.isSuccess(exit) ? ttl : Duration.zero
          }
        )
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
        const authenticate = Effect.fnUntraced(function*(authorization: string | undefined) {
          if (authorization === undefined || authorization.trim() === "") return yield* new MissingAuthorization()
          const token = bearer.exec(authorization)?.[1]
          if (token === undefined) return yield* new InvalidAuthorizationFormat()
          if (!looksLikeSecret(token)) return yield* new InvalidApiKey()
          const secretHash = hashSecret(token)
          const found = yield* Cache.get(lookups, secretHash)
          if (Option.isNone(found) || !sameHash(found.value.secretHash, secretHash)) return yield* new InvalidApiKey()
          const key = found.value
          const now = yield* Clock.currentTimeMillis
          if (key.status !== "active") return yield* new InvalidApiKey()
          if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return yield* new InvalidApiKey()
          yield* recordUse(key, now)
          return publicView(key)
        })

        const create = Effect.fn("ApiKeys.create")(function*(input: {
          name: string
          allowedModels: ReadonlyArray<string>
          allowedTools: ReadonlyArray<string>
          expiresAt?: Date | undefined
        }) {
          const secret = generateSecret()
          const key: StoredKey = {
            id: newKeyId(),
            name: input.name,
            prefix: displayPrefix(secret),
            secretHash: hashSecret(secret),
            status: "active",
            allowedModels: [...input.allowedModels],
            allowedTools: [...input.allowedTools],
            createdAt: new Date(yield* Clock.currentTimeMillis),
            lastUsedAt: null,
            expiresAt: input.expiresAt ?? null
          }
          yield* Effect.orDie(store.insert(key))
          return { key: publicView(key), secret }
        })

        const get = Effect.fn("ApiKeys.get")(function*(id: string) {
          const found = yield* Effect.orDie(store.get(id))
          if (Option.isNone(found)) return yield* new KeyNotFound({ id })
          return publicView(found.value)
        })

        const setStatus = Effect.fn("ApiKeys.setStatus")(function*(id: string, status: KeyStatus) {
          const updated = yield* Effect.orDie(store.setStatus(id, status))
          if (Option.isNone(updated)) return yield* new KeyNotFound({ id })
          yield* Cache.invalidate(lookups, updated.value.secretHash)
          return publicView(updated.value)
        })

        const rotate = Effect.fn("ApiKeys.rotate")(function*(id: string) {
          const secret = generateSecret()
          const replaced = yield* Effect.orDie(store.replaceSecret(id, hashSecret(secret), displayPrefix(secret)))
          if (Option.isNone(replaced)) return yield* new KeyNotFound({ id })
          yield* Cache.invalidate(lookups, replaced.value.previousHash)
          return { key: publicView(replaced.value.key), secret }
        })

        return ApiKeys.of({
          authenticate,
          create,
          list: Effect.orDie(store.list).pipe(
            Effect.map((keys) => keys.map(publicView)),
            Effect.withSpan("ApiKeys.list")
          ),
          get,
          setStatus,
          rotate
        })
      })
    ).pipe(Layer.provide(KeyStore.layer))

  /** Requires a migrated `SqlClient` (see `store/Database.ts`). */
  static readonly layer = ApiKeys.layerWith({})

  /** The real service over a private in-memory SQLite database, for tests. */
  static readonly layerTest = ApiKeys.layer.pipe(Layer.provide(Layer.orDie(Database.layerFromUrl("sqlite::memory:"))))
}
