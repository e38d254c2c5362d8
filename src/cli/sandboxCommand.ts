import { Console, Effect, Layer, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { ApiKeys } from "../auth/ApiKeys.ts"
import type { KeyNotFound } from "../auth/authErrors.ts"
import type { SandboxElsewhere, SandboxInfo, SandboxNotFound, SandboxUnavailable } from "../sandbox/Sandbox.ts"
import { SandboxProvider } from "../sandbox/SandboxProvider.ts"
import * as Database from "../store/Database.ts"
import { CliFailure } from "./CliFailure.ts"
import { sandboxImageCommand } from "./sandboxImageCommand.ts"
import { cliConfig, explainSetup, type SetupError } from "./setupFailure.ts"

/**
 * `parley sandbox …`: sandboxes recorded in the database named by
 * DATABASE_URL, their workspaces under PARLEY_SANDBOX_DIR; `--key` is checked
 * in the same database.
 */

const keysLayer = ApiKeys.layer.pipe(Layer.provide(Database.layer), Layer.provide(cliConfig))

type Failure = CliFailure | KeyNotFound | SandboxNotFound | SandboxElsewhere | SandboxUnavailable | SetupError

const explain = (error: Failure): CliFailure => {
  switch (error._tag) {
    case "CliFailure":
      return error
    case "KeyNotFound":
      return new CliFailure({ message: `${error.message}. Run \`parley keys list\` to see key ids.` })
    case "SandboxNotFound":
      return new CliFailure({ message: `No sandbox with id ${error.id}. Run \`parley sandbox list\` to see ids.` })
    case "SandboxElsewhere":
      return new CliFailure({
        message: `Sandbox ${error.sandboxId} lives on instance ${error.instance}: run this on its host ` +
          `(or, when its folder has moved here, with PARLEY_INSTANCE_ID=${error.instance}).`
      })
    case "SandboxUnavailable":
      return new CliFailure({ message: `This host cannot run sandboxes: ${error.message}` })
    default:
      return explainSetup(error)
  }
}

const withSandboxes = <A, E extends Failure>(effect: Effect.Effect<A, E, SandboxProvider>) =>
  effect.pipe(
    Effect.provide(SandboxProvider.layer.pipe(Layer.provide(Database.layer), Layer.provide(cliConfig))),
    Effect.mapError(explain)
  )

const json = Flag.Boolean("json").pipe(Flag.withDescription("Print JSON only"), Flag.withDefault(false))

const minute = (date: Date): string => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`

const ownerText = (sandbox: SandboxInfo) => sandbox.ownerKeyId ?? "account"

const sandboxJson = (sandbox: SandboxInfo) => ({
  id: sandbox.id,
  owner: sandbox.ownerKeyId,
  desktop: sandbox.desktop,
  network: sandbox.network,
  createdAt: sandbox.createdAt.toISOString(),
  instance: sandbox.instance
})

const table = (sandboxes: ReadonlyArray<SandboxInfo>): string => {
  if (sandboxes.length === 0) {
    return "No sandboxes yet. Create one with `parley sandbox create [--desktop] [--network]`."
  }
  const rows = [
    ["ID", "OWNER", "DESKTOP", "NETWORK", "CREATED", "INSTANCE"],
    ...sandboxes.map((sandbox) => [
      sandbox.id,
      ownerText(sandbox),
      sandbox.desktop ? "yes" : "no",
      sandbox.network ? "yes" : "no",
      minute(sandbox.createdAt),
      sandbox.instance ?? "any"
    ])
  ]
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd()).join("\n")
}

const create = Command.make("create", {
  desktop: Flag.Boolean("desktop").pipe(
    Flag.withDescription("Give it a desktop (Xvfb) for the computer tool"),
    Flag.withDefault(false)
  ),
  network: Flag.Boolean("network").pipe(
    Flag.withDescription("Let its commands reach the network"),
    Flag.withDefault(false)
  ),
  key: Flag.String("key").pipe(
    Flag.withDescription("Only this API key may use it (default: every key of the account)"),
    Flag.withMetavar("KEY_ID"),
    Flag.optional
  ),
  json
}, (input) =>
  withSandboxes(Effect.gen(function*() {
    const sandboxes = yield* SandboxProvider
    // A typo in --key would make a sandbox no key can use.
    const owner = Option.getOrNull(input.key)
    if (owner !== null) {
      yield* Effect.provide(Effect.flatMap(Effect.service(ApiKeys), (keys) => keys.get(owner)), keysLayer)
    }
    yield* Console.error(
      sandboxes.name === "docker"
        ? `Creating a sandbox: a container from the sandbox image on the engine${
          input.desktop ? ", with a desktop" : ""
        }…`
        : `Creating a sandbox: checking that this host can jail commands${input.desktop ? " and run a desktop" : ""}…`
    )
    const sandbox = yield* sandboxes.create({
      ownerKeyId: owner,
      desktop: input.desktop,
      network: input.network
    })
    if (input.json) {
      return yield* Console.log(JSON.stringify({ id: sandbox.id }))
    }
    const { height, width } = sandboxes.display
    yield* Console.log([
      `Created sandbox ${sandbox.id}.`,
      `  owner:   ${sandbox.ownerKeyId === null ? "account (every API key may use it)" : `key ${sandbox.ownerKeyId}`}`,
      `  desktop: ${sandbox.desktop ? `yes (${width}x${height}; it starts on first use)` : "no"}`,
      `  network: ${sandbox.network ? "yes" : "no"}`,
      "",
      `Send "sandboxId": "${sandbox.id}" with requests that use the bash or computer tool.`
    ].join("\n"))
  }))).pipe(
    Command.withDescription("Create a sandbox: an isolated workspace for the bash and computer tools"),
    Command.withExamples([{
      command: "parley sandbox create --desktop",
      description: "A sandbox with a desktop, no network"
    }])
  )

const list = Command.make("list", { json }, ({ json }) =>
  withSandboxes(Effect.gen(function*() {
    const sandboxes = yield* (yield* SandboxProvider).list
    yield* Console.log(json ? JSON.stringify(sandboxes.map(sandboxJson), null, 2) : table(sandboxes))
  }))).pipe(Command.withDescription("List sandboxes"))

const rm = Command.make("rm", {
  id: Argument.String("id").pipe(Argument.withDescription("Sandbox id, as shown by `parley sandbox list`"))
}, ({ id }) =>
  withSandboxes(Effect.gen(function*() {
    const sandboxes = yield* SandboxProvider
    yield* sandboxes.get(id)
    yield* Console.error(`Removing sandbox ${id} and deleting its workspace…`)
    yield* sandboxes.destroy(id)
    yield* Console.log(
      `Removed sandbox ${id} and its workspace. A desktop it had in a running server stops within 5 seconds.`
    )
  }))).pipe(Command.withDescription("Remove a sandbox and delete its workspace"))

export const sandboxCommand = Command.make("sandbox").pipe(
  Command.withDescription("Manage sandboxes for the bash and computer tools"),
  Command.withSubcommands([create, list, rm, sandboxImageCommand])
)
