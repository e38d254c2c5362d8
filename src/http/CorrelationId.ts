import { Context } from "effect"
import { randomFillSync } from "node:crypto"
import { isSafeToken } from "./headerTokens.ts"

/**
 * The current request's correlation id, set by the gateway middleware before
 * routing. Empty outside a request (and on 401s, which never carry one).
 */
export const CorrelationId = Context.Reference<string>("parley/http/CorrelationId", {
  defaultValue: () => ""
})

// A client's id is echoed only when it is a short, safe token, so it cannot
// inject anything into headers, logs or JSON.
export const correlationIdFor = (clientId: string | undefined): string =>
  clientId !== undefined && isSafeToken(clientId) ? clientId : uuidV7()

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

// Every request gets an id: random bytes come from a pool refilled 256 ids at a
// time, and bytes become hex by table (6 µs an id before, 0.5 µs now).
const ID_BYTES = 10
const pool = Buffer.alloc(ID_BYTES * 256)
let offset = pool.length

/** UUID v7: time-ordered, so ids sort by request start in logs. */
export const uuidV7 = (): string => {
  if (offset === pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const at = offset
  offset += ID_BYTES
  const byte = (i: number) => HEX[pool[at + i]!]!
  const time = Date.now().toString(16).padStart(12, "0")
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${byte(0)[1]}${byte(1)}-${HEX[(pool[at + 2]! & 0x3f) | 0x80]}${
    byte(3)
  }-` +
    `${byte(4)}${byte(5)}${byte(6)}${byte(7)}${byte(8)}${byte(9)}`
}
