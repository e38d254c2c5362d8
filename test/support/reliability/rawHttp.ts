import { connect, type Socket } from "node:net"

/** A raw TCP connection to `url`'s host and port, for what fetch cannot do (half-sent requests, stop reading). */
export const openSocket = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once("connect", () => {
      socket.off("error", reject)
      resolve(socket)
    })
    socket.once("error", reject)
  })

/** The head of an HTTP/1.1 request; `contentLength` announces a body that may never come. */
export const requestHead = (
  method: string,
  path: string,
  headers: Record<string, string | number>,
  contentLength?: number
): string =>
  [
    `${method} ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(contentLength === undefined ? [] : [`Content-Length: ${contentLength}`]),
    "",
    ""
  ].join("\r\n")

/** Resolves once the socket has received `text` (it keeps reading). */
export const received = (socket: Socket, text: string, timeoutMs = 10_000): Promise<string> =>
  new Promise((resolve, reject) => {
    let seen = ""
    const timer = setTimeout(() => {
      socket.off("data", onData)
      reject(new Error(`did not receive ${JSON.stringify(text)} within ${timeoutMs} ms; got ${seen.slice(0, 300)}`))
    }, timeoutMs)
    const onData = (data: Buffer) => {
      seen += data.toString("latin1")
      if (!seen.includes(text)) return
      clearTimeout(timer)
      socket.off("data", onData)
      resolve(seen)
    }
    socket.on("data", onData)
  })
