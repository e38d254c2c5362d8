import { ServerResponse } from "node:http"

type Method = "writeHead" | "write" | "end"

/**
 * Makes the `nth` call of `method` on the gateway's own Node response to a
 * request that carries `X-Correlation-Id: <id>` throw, as Node throws for a
 * header it refuses (`ERR_INVALID_CHAR`, issue 32): a write that throws, on the
 * real response of a gateway running in this process. Returns the undo.
 */
export const throwOnWrite = (id: string, method: Method, nth = 1): () => void => {
  const original = ServerResponse.prototype[method] as (...args: Array<unknown>) => unknown
  let calls = 0
  ;(ServerResponse.prototype as any)[method] = function(this: ServerResponse, ...args: Array<unknown>) {
    if (this.req?.headers["x-correlation-id"] === id && ++calls === nth) {
      throw new TypeError(`a test made ${method} #${nth} of this answer throw`)
    }
    return original.apply(this, args)
  }
  return () => {
    ;(ServerResponse.prototype as any)[method] = original
  }
}
