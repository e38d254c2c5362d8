import { Console, Effect, Layer, Option, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import type { EmailTaken } from "../auth/accountErrors.ts"
import { Accounts } from "../auth/Accounts.ts"
import { MIN_PASSWORD_LENGTH } from "../auth/passwords.ts"
import { accountView } from "../domain/views.ts"
import * as Database from "../store/Database.ts"
import { parseModels, parseTools } from "./allowLists.ts"
import { CliFailure } from "./CliFailure.ts"
import { cliConfig, explainSetup, type SetupError } from "./setupFailure.ts"

/** `parley accounts …`: accounts (docs/DESIGN.md §6), straight in the database named by DATABASE_URL. */

const accountsLayer = Accounts.layer.pipe(Layer.provide(Database.layer), Layer.provide(cliConfig))

const explain = (error: CliFailure | EmailTaken | SetupError): CliFailure => {
  switch (error._tag) {
    case "CliFailure":
      return error
    case "EmailTaken":
      return new CliFailure({ message: `${error.message}. Run \`parley accounts list\` to see them.` })
    default:
      return explainSetup(error)
  }
}

const withAccounts = <A, E extends CliFailure | EmailTaken>(effect: Effect.Effect<A, E, Accounts>) =>
  effect.pipe(Effect.provide(accountsLayer), Effect.mapError(explain))

const json = Flag.Boolean("json").pipe(Flag.withDescription("Print JSON only"), Flag.withDefault(false))

const listText = (entries: ReadonlyArray<string>) => entries.length === 0 ? "(none)" : entries.join(",")

// The whole of stdin, less the one line break `echo` or a terminal adds.
const readStdin = Effect.promise(async () => {
  const parts: Array<Buffer> = []
  for await (const part of process.stdin) parts.push(part as Buffer)
  return Buffer.concat(parts).toString("utf8").replace(/\r?\n$/, "")
})

const accountListFlag = (name: "models" | "tools") =>
  Flag.String(name).pipe(
    Flag.withDescription(
      `Bound on the account's keys' ${name}, comma-separated (as for keys create). Default: * (keys alone decide)`
    ),
    Flag.withMetavar("LIST"),
    Flag.withDefault("*")
  )

const create = Command.make("create", {
  name: Flag.String("name").pipe(
    Flag.withDescription("The account holder's name"),
    Flag.withSchema(Schema.Trim.pipe(Schema.decodeTo(Schema.NonEmptyString)))
  ),
  email: Flag.String("email").pipe(Flag.withDescription("Signs in to the console with it")),
  passwordStdin: Flag.Boolean("password-stdin").pipe(
    Flag.withDescription("Read the console password from standard input (without it the account cannot sign in)"),
    Flag.withDefault(false)
  ),
  models: accountListFlag("models"),
  tools: accountListFlag("tools"),
  json
}, (input) =>
  Effect.gen(function*() {
    if (!/^[^\s@]+@[^\s@]+$/.test(input.email.trim())) {
      return yield* new CliFailure({ message: `--email: "${input.email}" is not an email address.` })
    }
    const allowedModels = yield* parseModels(Option.some(input.models))
    const allowedTools = yield* parseTools(Option.some(input.tools))
    const password = input.passwordStdin ? yield* readStdin : undefined
    if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) {
      return yield* new CliFailure({ message: `The password needs at least ${MIN_PASSWORD_LENGTH} characters.` })
    }
    yield* withAccounts(Effect.gen(function*() {
      const account = yield* (yield* Accounts).create({
        name: input.name,
        email: input.email,
        password,
        allowedModels,
        allowedTools
      })
      if (input.json) return yield* Console.log(JSON.stringify(accountView(account)))
      yield* Console.log(
        [
          `Created account ${account.id} (${account.email}).`,
          `  models: ${listText(account.allowedModels)}`,
          `  tools:  ${listText(account.allowedTools)}`,
          password === undefined ? "  It cannot sign in to the console: no password (--password-stdin)." : "",
          `Make it a key with \`parley keys create --account ${account.id} --name NAME --models LIST --tools LIST\`.`
        ].filter((line) => line !== "").join("\n")
      )
    }))
  })).pipe(
    Command.withDescription("Create an account, the owner of keys and sandboxes"),
    Command.withExamples([{
      command: "echo 'long secret' | parley accounts create --name Ana --email ana@example.com --password-stdin",
      description: "An account that may sign in to the console"
    }])
  )

const list = Command.make("list", { json }, ({ json }) =>
  withAccounts(Effect.gen(function*() {
    const accounts = yield* (yield* Accounts).list
    if (json) return yield* Console.log(JSON.stringify(accounts.map(accountView), null, 2))
    const rows = [
      ["ID", "NAME", "EMAIL", "STATUS", "MODELS", "TOOLS"],
      ...accounts.map((
        a
      ) => [a.id, a.name, a.email ?? "-", a.status, listText(a.allowedModels), listText(a.allowedTools)])
    ]
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
    yield* Console.log(rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n"))
  }))).pipe(Command.withDescription("List accounts"))

export const accountsCommand = Command.make("accounts").pipe(
  Command.withDescription("Manage accounts (owners of keys and sandboxes)"),
  Command.withSubcommands([create, list])
)
