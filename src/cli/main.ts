import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { Command } from "effect/cli"
import packageJson from "../../package.json" with { type: "json" }
import { accountsCommand } from "./accountsCommand.ts"
import { keysCommand } from "./keysCommand.ts"
import { sandboxCommand } from "./sandboxCommand.ts"

/** `parley`: the operator's command line (`npx parley <command>`). */

// Loaded on demand, so `parley keys …` neither waits for nor depends on the server's modules.
// The annotations state the contract each module must keep.
const serve = Command.make("serve", {}, () =>
  Effect.flatMap(
    Effect.promise((): Promise<{ readonly runServer: Effect.Effect<never, unknown> }> => import("../app/gateway.ts")),
    (server) => server.runServer
  )).pipe(
    Command.withDescription("Run the gateway (HOST, PORT, DATABASE_URL, PARLEY_CONFIG)")
  )

const demo = Command.make("demo", {}, () =>
  Effect.flatMap(
    Effect.promise((): Promise<{ readonly runDemo: Effect.Effect<void, unknown> }> => import("./demo.ts")),
    (demo) => demo.runDemo
  )).pipe(
    Command.withDescription("Show parley at work end to end")
  )

const parley = Command.make("parley").pipe(
  Command.withDescription("parley: a chat gateway to language models"),
  Command.withSubcommands([serve, accountsCommand, keysCommand, sandboxCommand, demo])
)

parley.pipe(
  Command.run({ version: packageJson.version }),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain
)
