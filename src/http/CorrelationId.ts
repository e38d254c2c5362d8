import { Context } from "effect"

/**
 * The current request's correlation id, set by the gateway middleware before
 * routing. Empty outside a request (and on 401s, which never carry one).
 */
export const CorrelationId = Context.Reference<string>("parley/http/CorrelationId", {
  defaultValue: () => ""
})

// A client's id is echoed only when it is a short, safe token, so it cannot
// inject anything into headers, logs or JSON.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/

export const correlationIdFor = (clientId: string | undefined): string =>
  clientId !== undefined && SAFE_ID.test(clientId) ? clientId : uuidV7()

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")

/** UUID v7: time-ordered, so ids sort by request start in logs. */
export const uuidV7 = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(10))
  const ms = Date.now()
  const time = hex(ms, 12)
  const rand = Array.from(bytes, (b) => hex(b, 2)).join("")
  const variant = hex((bytes[2]! & 0x3f) | 0x80, 2)
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rand.slice(0, 3)}-${variant}${rand.slice(6, 8)}-${rand.slice(8, 20)}`
}
