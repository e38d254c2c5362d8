import type { IncomingMessage } from "node:http"

/** A request body as UTF-8 text, read whole (the scripted upstream; the tests' API fakes and the bench's proxy too). */
export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Array<Buffer> = []
    req.on("data", (part: Buffer) => parts.push(part))
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")))
    req.on("error", reject)
  })
