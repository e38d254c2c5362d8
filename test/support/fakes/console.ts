import { inspect } from "node:util"
import { vi } from "vitest"

const methods = ["log", "info", "warn", "error", "debug", "trace", "group", "groupCollapsed"] as const

/** Everything written through `console` (where Effect's logger writes) until `restore`. */
export const captureConsole = () => {
  const lines: Array<string> = []
  const spies = methods.map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
      lines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 12 }))).join(" "))
    })
  )
  return {
    text: () => lines.join("\n"),
    restore: () => spies.forEach((spy) => spy.mockRestore())
  }
}
