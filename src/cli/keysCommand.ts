import { Clock, Console, Effect, Layer, Option, Schema } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { AccountNotFound } from "../auth/accountErrors.ts"
import { Accounts } from "../auth/Accounts.ts"
import { ApiKeys } from "../auth/ApiKeys.ts"
import type { KeyNotFound, KeyRevoked } from "../auth/authErrors.ts"
import { DEFAULT_ACCOUNT_ID } from "../domain/Account.ts"
import { entriesBeyond } from "../domain/ApiKey.ts"
import type { KeyStatus } from "../domain/ApiKey.ts"
import { keyView } from "../domain/views.ts"
import * as Database from "../store/Database.ts"
import { parseModels, parseTools } from "./allowLists.ts"
import { CliFailure } from "./CliFailure.ts"
import { approve, expiresIn, expiryOf, listFlag } from "./keyFlags.ts"
import { keySummary, keyTable, secretNotice } from "./keyOutput.ts"
import { limitsFlag, parseLimits } from "./limitsFlag.ts"
import { cliConfig, explainSetup, type SetupError } from "./setupFailure.ts"

/** `parley keys …`: API keys, straight in the database named by DATABASE_URL (migrated first). */

const keysLayer = Layer.merge(ApiKeys.layer, Accounts.layer).pipe(
  Layer.provide(Database.layer),
  Layer.provide(cliConfig)
)

type KeysFailure = CliFailure | KeyNotFound | KeyRevoked | AccountNotFound

const explain = (error: KeysFailure | SetupError): CliFailure => {
  switch (error._tag) {
    case "CliFailure":
      return error
    case "KeyNotFound":
      return new CliFailure({ message: `${error.message}. Run \`parley keys list\` to see ids.` })
    case "KeyRevoked":
      return new CliFailure({ message: `${error.message} (\`parley keys create\`).` })
    case "AccountNotFound":
      return new CliFailure({ message: `${error.message}. Run \`parley accounts list\` to see ids.` })
    default:
      return explainSetup(error)
  }
}

const withKeys = <A, E extends KeysFailure>(effect: Effect.Effect<A, E, ApiKeys | Accounts>) =>
  effect.pipe(Effect.provide(keysLayer), Effect.mapError(explain))

const id = Argument.String("id").pipe(Argument.withDescription("Key id, as shown by `parley keys list`"))

const json = Flag.Boolean("json").pipe(Flag.withDescription("Print JSON only"), Flag.withDefault(false))

const printSecret = (verb: string, key: { readonly id: string }, secret: string, summary: string, asJson: boolean) =>
  asJson
    ? Console.log(JSON.stringify({ id: key.id, key: secret }))
    : Console.log(`${verb}\n${summary}\n${secretNotice(secret)}`)

/** A key can only narrow its account (docs/DESIGN.md §6). */
const withinAccount = (
  accountId: string,
  lists: { readonly allowedModels?: ReadonlyArray<string>; readonly allowedTools?: ReadonlyArray<string> }
) =>
  Effect.gen(function*() {
    const account = yield* (yield* Accounts).get(accountId)
    const wider = [
      ...entriesBeyond(lists.allowedModels ?? [], account.allowedModels),
      ...entriesBeyond(lists.allowedTools ?? [], account.allowedTools)
    ]
    if (wider.length > 0) {
      return yield* new CliFailure({ message: `Not allowed for account ${accountId}: ${wider.join(", ")}.` })
    }
  })

const create = Command.make("create", {
  name: Flag.String("name").pipe(
    Flag.withDescription("A label for the key, such as the client that will use it"),
    Flag.withSchema(Schema.Trim.pipe(Schema.decodeTo(Schema.NonEmptyString)))
  ),
  models: listFlag("models", "models"),
  tools: listFlag("tools", "tools"),
  approve,
  limits: limitsFlag,
  expiresIn,
  account: Flag.String("account").pipe(
    Flag.withDescription("The owning account's id (default: default); the key can only narrow its allow-lists"),
    Flag.withMetavar("ID"),
    Flag.withDefault(DEFAULT_ACCOUNT_ID)
  ),
  json
}, (input) =>
  Effect.gen(function*() {
    const allowedModels = yield* parseModels(input.models)
    const allowedTools = yield* parseTools(input.tools)
    const approvalRequired = yield* parseTools(input.approve, "--approve")
    const limits = yield* parseLimits(input.limits)
    const expiresAt = yield* expiryOf(input.expiresIn)
    yield* withKeys(Effect.gen(function*() {
      const keys = yield* ApiKeys
      yield* withinAccount(input.account, { allowedModels, allowedTools })
      const { key, secret } = yield* keys.create({
        name: input.name,
        allowedModels,
        allowedTools,
        approvalRequired,
        limits,
        expiresAt,
        accountId: input.account
      })
      yield* printSecret("Created an API key.", key, secret, keySummary(key), input.json)
    }))
  })).pipe(
    Command.withDescription("Create an API key; its secret is printed once"),
    Command.withExamples([{
      command: "parley keys create --name recruiting-bot --models 'openai/*' --tools browser,chat_message",
      description: "A key for every OpenAI model and two tools"
    }])
  )

const list = Command.make("list", { json }, ({ json }) =>
  withKeys(Effect.gen(function*() {
    const keys = yield* (yield* ApiKeys).list()
    if (json) return yield* Console.log(JSON.stringify(keys.map(keyView), null, 2))
    yield* Console.log(keyTable(keys, yield* Clock.currentTimeMillis))
  }))).pipe(Command.withDescription("List API keys (never their secrets)"))

const revokedFailure = (keyId: string, action: string) =>
  new CliFailure({
    message: `Key ${keyId} is revoked and cannot be ${action}. Create a new key with \`parley keys create\`.`
  })

const statusCommand = (name: string, status: KeyStatus, description: string, done: (keyId: string) => string) =>
  Command.make(name, { id }, ({ id }) =>
    withKeys(Effect.gen(function*() {
      const keys = yield* ApiKeys
      const key = yield* keys.get(id)
      if (key.status === status) return yield* Console.log(`Key ${id} is already ${status}.`)
      if (key.status === "revoked") return yield* revokedFailure(id, `${name}d`)
      yield* keys.setStatus(id, status)
      yield* Console.log(done(id))
    }))).pipe(Command.withDescription(description))

const activate = statusCommand(
  "activate",
  "active",
  "Allow requests with a deactivated key again",
  (keyId) => `Key ${keyId} is active: requests with it are accepted within 5 seconds.`
)

const deactivate = statusCommand(
  "deactivate",
  "inactive",
  "Refuse requests with a key until it is activated again",
  (keyId) =>
    `Key ${keyId} is inactive: requests with it are refused within 5 seconds. Undo with \`parley keys activate ${keyId}\`.`
)

const revoke = statusCommand(
  "revoke",
  "revoked",
  "Refuse requests with a key for good (for a leaked key)",
  (keyId) => `Key ${keyId} is revoked: requests with it are refused within 5 seconds. This cannot be undone.`
)

const grace = Flag.Int("grace").pipe(
  Flag.withDescription("Seconds the previous secret keeps working (default 0; at most 30 days)"),
  Flag.withMetavar("SECONDS"),
  Flag.withDefault(0)
)

const MAX_GRACE_SECONDS = 30 * 86_400

const rotate = Command.make("rotate", { id, grace, json }, ({ grace, id, json }) =>
  withKeys(Effect.gen(function*() {
    if (grace < 0 || grace > MAX_GRACE_SECONDS) {
      return yield* new CliFailure({ message: `--grace must be between 0 and ${MAX_GRACE_SECONDS} seconds.` })
    }
    const keys = yield* ApiKeys
    if ((yield* keys.get(id)).status === "revoked") return yield* revokedFailure(id, "rotated")
    const { key, secret } = yield* keys.rotate(id, grace)
    const note = grace === 0
      ? "The previous secret stops working within 5 seconds; the allow-lists are unchanged."
      : `The previous secret keeps working for ${grace} second${grace === 1 ? "" : "s"}; the allow-lists are unchanged.`
    yield* printSecret(`Rotated key ${key.id}. ${note}`, key, secret, keySummary(key), json)
  }))).pipe(Command.withDescription("Replace a key's secret; the new one is printed once"))

const update = Command.make("update", {
  id,
  models: listFlag("models", "models"),
  tools: listFlag("tools", "tools"),
  approve,
  limits: limitsFlag,
  expiresIn
}, (input) =>
  Effect.gen(function*() {
    // Only the lists given change; an empty one (--models '') allows nothing.
    const allowedModels = Option.isSome(input.models) ? yield* parseModels(input.models) : undefined
    const allowedTools = Option.isSome(input.tools) ? yield* parseTools(input.tools) : undefined
    const approvalRequired = Option.isSome(input.approve) ? yield* parseTools(input.approve, "--approve") : undefined
    const limits = yield* parseLimits(input.limits)
    const expiresAt = yield* expiryOf(input.expiresIn)
    yield* withKeys(Effect.gen(function*() {
      const keys = yield* ApiKeys
      const before = yield* keys.get(input.id)
      if (before.status === "revoked") return yield* revokedFailure(input.id, "updated")
      yield* withinAccount(before.accountId, {
        ...(allowedModels === undefined ? {} : { allowedModels }),
        ...(allowedTools === undefined ? {} : { allowedTools })
      })
      const key = yield* keys.update(input.id, {
        ...(allowedModels === undefined ? {} : { allowedModels }),
        ...(allowedTools === undefined ? {} : { allowedTools }),
        ...(approvalRequired === undefined ? {} : { approvalRequired }),
        ...(limits === undefined ? {} : { limits }),
        ...(expiresAt === undefined ? {} : { expiresAt })
      })
      yield* Console.log(`Updated key ${key.id}; requests see the change within 5 seconds.\n${keySummary(key)}`)
    }))
  })).pipe(Command.withDescription("Change a key's allow-lists, approval list, limits or expiry"))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([create, list, update, activate, deactivate, revoke, rotate])
)
