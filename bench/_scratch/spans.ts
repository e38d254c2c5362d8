import { Effect, References } from "effect"
const time = async (label: string, n: number, fn: () => Promise<unknown> | unknown) => {
  for (let i = 0; i < 5000; i++) await fn()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0)
  console.log(label.padEnd(34), ((c.user + c.system) / n).toFixed(2), "µs cpu/iter")
}
const traced = Effect.fn("x")(function*() { return 1 })
const untraced = Effect.fnUntraced(function*() { return 1 })
const N = 50000
for (let r = 0; r < 2; r++) {
  await time("runPromise fnUntraced", N, () => Effect.runPromise(untraced()))
  await time("runPromise fn traced", N, () => Effect.runPromise(traced()))
  await time("runPromise fn traced, tracer off", N, () => Effect.runPromise(Effect.provideService(traced(), References.TracerEnabled, false)))
  await time("runPromise untraced+tracer off", N, () => Effect.runPromise(Effect.provideService(untraced(), References.TracerEnabled, false)))
}
