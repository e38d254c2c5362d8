import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import packageJson from "../../package.json" with { type: "json" }
import { badWorkers, isWorker, parseWorkers, superviseWorkers } from "../app/workers.ts"
import { accountsCommand } from "./accountsCommand.ts"
import { CliFailure } from "./CliFailure.ts"
import { keysCommand } from "./keysCommand.ts"
import { sandboxCommand } from "./sandboxCommand.ts"
import { serverTeardown } from "./serverTeardown.ts"
import { stopWithParent } from "./stopWithParent.ts"

/** `parley`: the operator's command line (`npx parley <command>`). */

// Loaded on demand, so `parley keys …` neither waits for nor depends on the server's modules.
// The annotations state the contract each module must keep.
const runServer = Effect.flatMap(
  Effect.promise((): Promise<{ readonly serve: Effect.Effect<void, unknown> }> => import("./serve.ts")),
  (server) => server.serve
)

const workers = Flag.String("workers").pipe(
  Flag.withDescription("Run N gateway processes on the one port (node:cluster); auto: one per core"),
  Flag.withMetavar("N|auto"),
  Flag.optional
)

// Not interruptible: on SIGTERM the primary waits for its workers, then exits with their verdict.
const runPrimary = (count: number) =>
  Effect.uninterruptible(
    Effect.flatMap(Effect.promise(() => superviseWorkers(count)), (code) => Effect.sync(() => process.exit(code)))
  )

// A worker runs this same command line: it serves, where the primary supervises (app/workers.ts).
const serve = Command.make("serve", { workers }, ({ workers }) =>
  Option.match(workers, {
    onNone: () => runServer,
    onSome: (text) => {
      if (isWorker()) return runServer
      const count = parseWorkers(text)
      return count === undefined ? Effect.fail(new CliFailure({ message: badWorkers(text) })) : runPrimary(count)
    }
  })).pipe(
    Command.withDescription("Run the gateway (HOST, PORT, DATABASE_URL, PARLEY_CONFIG)")
  )

const demo = Command.make("demo", {
  provider: Flag.Boolean("provider").pipe(
    Flag.withDescription(
      "Run only the scripted OpenAI-compatible provider, on 127.0.0.1:9100 as parley.config.example.json expects"
    ),
    Flag.withDefault(false)
  ),
  port: Flag.Int("port").pipe(
    Flag.withDescription("With --provider: the loopback port to listen on (default 9100)"),
    Flag.withMetavar("PORT"),
    Flag.optional
  )
}, ({ port, provider }) =>
  provider
    ? Effect.flatMap(
      Effect.promise((): Promise<typeof import("./demoProvider.ts")> => import("./demoProvider.ts")),
      (demo) => demo.runDemoProvider(Option.getOrElse(port, () => demo.DEFAULT_PORT))
    )
    : Effect.flatMap(
      Effect.promise((): Promise<{ readonly runDemo: Effect.Effect<void, unknown> }> => import("./demo.ts")),
      (demo) => demo.runDemo
    )).pipe(
    Command.withDescription("Show parley at work end to end")
  )

// `parley help keys create` is `parley keys create --help`: the usage, from the same place.
const help = Command.make(
  "help",
  {
    command: Argument.String("command").pipe(
      Argument.withDescription("The command to explain, such as `keys create`"),
      Argument.variadic()
    )
  },
  ({ command }): Effect.Effect<void, unknown, Command.Environment> =>
    Effect.suspend(() => runParley([...command, "--help"]))
).pipe(
  Command.withDescription("Show the usage of parley or of one of its commands")
)

const parley = Command.make("parley").pipe(
  Command.withDescription("parley: a chat gateway to language models"),
  Command.withSubcommands([serve, accountsCommand, keysCommand, sandboxCommand, demo, help])
)

const runParley: (args: ReadonlyArray<string>) => Effect.Effect<void, unknown, Command.Environment> = Command.runWith(
  parley,
  { version: packageJson.version }
)

stopWithParent()
runParley(process.argv.slice(2)).pipe(
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ teardown: serverTeardown })
)
