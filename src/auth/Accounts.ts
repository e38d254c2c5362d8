import { Clock, Context, Effect, Layer, Option } from "effect"
import type { Account, AccountStatus } from "../domain/Account.ts"
import type { Limits } from "../domain/Limits.ts"
import { ChangeFeed } from "../store/ChangeFeed.ts"
import { AccountNotFound, EmailTaken, SignInFailed } from "./accountErrors.ts"
import { AccountStore, type StoredAccount } from "./AccountStore.ts"
import { decoyHash, hashPassword, verifyPassword } from "./passwords.ts"
import { newAccountId } from "./secrets.ts"

export interface NewAccount {
  readonly name: string
  readonly email: string
  /** Without one the account cannot sign in to the console (the operator still manages it). */
  readonly password?: string | undefined
  readonly allowedModels: ReadonlyArray<string>
  readonly allowedTools: ReadonlyArray<string>
  /** Tools that wait for a person for every key of the account (docs/DESIGN.md §10); default none. */
  readonly approvalRequired?: ReadonlyArray<string> | undefined
  /** docs/DESIGN.md §11; default none. */
  readonly limits?: Limits | undefined
}

export interface AccountUpdate {
  readonly name?: string | undefined
  readonly status?: AccountStatus | undefined
  readonly allowedModels?: ReadonlyArray<string> | undefined
  readonly allowedTools?: ReadonlyArray<string> | undefined
  readonly approvalRequired?: ReadonlyArray<string> | undefined
  readonly limits?: Limits | undefined
  readonly password?: string | undefined
}

/** Emails compare without case or surrounding blanks. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

const publicView = ({ passwordHash: _, ...account }: StoredAccount): Account => account

/** Accounts (docs/DESIGN.md §6): who owns keys and sandboxes, and who may sign in to the console. */
export class Accounts extends Context.Service<Accounts, {
  readonly create: (input: NewAccount) => Effect.Effect<Account, EmailTaken>
  readonly list: Effect.Effect<ReadonlyArray<Account>>
  readonly get: (id: string) => Effect.Effect<Account, AccountNotFound>
  readonly update: (id: string, changes: AccountUpdate) => Effect.Effect<Account, AccountNotFound>
  /** The active account with this email and password; as slow for an unknown email as for a wrong password. */
  readonly verifySignIn: (email: string, password: string) => Effect.Effect<Account, SignInFailed>
}>()("parley/auth/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const store = yield* AccountStore
      const feed = yield* ChangeFeed

      const get = Effect.fn("Accounts.get")(function*(id: string) {
        const found = yield* Effect.orDie(store.get(id))
        if (Option.isNone(found)) return yield* new AccountNotFound({ id })
        return publicView(found.value)
      })

      const create = Effect.fn("Accounts.create")(function*(input: NewAccount) {
        const email = normalizeEmail(input.email)
        if (Option.isSome(yield* Effect.orDie(store.findByEmail(email)))) return yield* new EmailTaken({ email })
        const account: StoredAccount = {
          id: newAccountId(),
          name: input.name,
          email,
          passwordHash: input.password === undefined ? null : yield* hashPassword(input.password),
          status: "active",
          allowedModels: [...input.allowedModels],
          allowedTools: [...input.allowedTools],
          approvalRequired: [...(input.approvalRequired ?? [])],
          limits: input.limits ?? {},
          createdAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* Effect.orDie(store.insert(account))
        return publicView(account)
      })

      const update = Effect.fn("Accounts.update")(function*(id: string, changes: AccountUpdate) {
        const passwordHash = changes.password === undefined ? undefined : yield* hashPassword(changes.password)
        const updated = yield* Effect.orDie(store.update(id, {
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.status === undefined ? {} : { status: changes.status }),
          ...(changes.allowedModels === undefined ? {} : { allowedModels: changes.allowedModels }),
          ...(changes.allowedTools === undefined ? {} : { allowedTools: changes.allowedTools }),
          ...(changes.approvalRequired === undefined ? {} : { approvalRequired: changes.approvalRequired }),
          ...(changes.limits === undefined ? {} : { limits: changes.limits }),
          ...(passwordHash === undefined ? {} : { passwordHash })
        }))
        if (Option.isNone(updated)) return yield* new AccountNotFound({ id })
        // Its status and allow-lists are part of every cached verified key of the account (auth/ApiKeys.ts).
        yield* feed.publish("accounts", id)
        return publicView(updated.value)
      })

      const verifySignIn = Effect.fn("Accounts.verifySignIn")(function*(email: string, password: string) {
        const found = yield* Effect.orDie(store.findByEmail(normalizeEmail(email)))
        const hash = Option.isSome(found) && found.value.passwordHash !== null
          ? found.value.passwordHash
          : yield* decoyHash
        const matches = yield* verifyPassword(password, hash)
        if (!matches || Option.isNone(found) || found.value.status !== "active") return yield* new SignInFailed()
        return publicView(found.value)
      })

      return Accounts.of({
        create,
        list: Effect.orDie(store.list).pipe(Effect.map((accounts) => accounts.map(publicView))),
        get,
        update,
        verifySignIn
      })
    })
  ).pipe(Layer.provide(AccountStore.layer))
}
