import { badWorkers, isWorker, parseWorkers, superviseWorkers } from "./app/workers.ts"

/**
 * `npm start`: the gateway; `npm start -- --workers N|auto`: N of them on the
 * one port, as `parley serve --workers` (app/workers.ts). The primary loads
 * neither the gateway nor Effect: they are imported only where a gateway serves.
 */
const flag = process.argv.indexOf("--workers")
const workers = flag === -1 ? undefined : process.argv[flag + 1] ?? ""
const count = workers === undefined ? undefined : parseWorkers(workers)

if (workers !== undefined && count === undefined) {
  process.stderr.write(`${badWorkers(workers)}\n`)
  process.exit(1)
} else if (count !== undefined && !isWorker()) {
  process.exit(await superviseWorkers(count))
} else {
  const [NodeRuntime, { serve }, { serverTeardown }] = await Promise.all([
    import("@effect/platform-node/NodeRuntime"),
    import("./cli/serve.ts"),
    import("./cli/serverTeardown.ts")
  ])
  serve.pipe(NodeRuntime.runMain({ teardown: serverTeardown }))
}
