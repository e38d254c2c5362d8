import { monitorEventLoopDelay } from "node:perf_hooks"
import { collectDefaultMetrics, Gauge, Registry } from "prom-client"

/**
 * The process's own metrics: prom-client's defaults (`process_cpu_*`,
 * `process_resident_memory_bytes`, `process_open_fds`, `nodejs_active_handles`…)
 * and `parley_event_loop_lag_seconds`. One registry per process, made on first
 * use: they describe the process, however many gateways it runs (tests run many).
 */
let registry: Registry | undefined

const makeRegistry = (): Registry => {
  const made = new Registry()
  collectDefaultMetrics({ register: made })
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  made.registerMetric(
    new Gauge({
      name: "parley_event_loop_lag_seconds",
      help: "Event loop delay, 99th percentile since the previous scrape",
      registers: [],
      collect() {
        // The histogram is empty until the loop has turned once at the resolution.
        this.set(delay.count === 0 ? 0 : delay.percentile(99) / 1e9)
        delay.reset()
      }
    })
  )
  return made
}

export const processMetrics = (): Registry => registry ??= makeRegistry()
