import { describe, it } from "@effect/vitest"
import { connect } from "node:net"

/** Whether something listens at the URL's host and port (`defaultPort` when it names none). */
export const reachable = (url: string, defaultPort: number): Promise<boolean> => {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || defaultPort), timeout: 2_000 })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.once("connect", () => done(true))
    socket.once("timeout", () => done(false))
    socket.once("error", () => done(false))
  })
}

/**
 * `describe` for tests that need a real server (Postgres, Redis). In CI
 * (`CI=true`) an unreachable one fails the suite loudly; elsewhere its tests
 * are skipped with a message saying why.
 */
export const describeNeeding =
  (service: string, url: string, isReachable: boolean) =>
  (name: string, body: () => void, options: { readonly timeout?: number } = {}): void => {
    if (isReachable) {
      describe(name, options, body)
    } else if (process.env.CI === "true") {
      describe(name, () => {
        it(`needs ${service}`, () => {
          throw new Error(`${service} is unreachable at ${url}; CI must provide it`)
        })
      })
    } else {
      describe.skip(`${name} (skipped: ${service} unreachable at ${url}; required when CI=true)`, body)
    }
  }
