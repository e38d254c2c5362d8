import type { Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"

const oldest = (sockets: Set<Socket>): Socket | undefined => sockets.values().next().value

/**
 * Caps the client connections `server` holds at `max`, below the open-file
 * limit, so a flood of connections cannot leave the gateway without
 * descriptors for its provider calls. Past the cap a new connection takes
 * the place of the oldest one that has not yet sent a request head (a flood
 * of idle, half-sent connections is made of those), else of the one idle
 * between requests the longest: a connection kept alive (75 s by default)
 * holds no request, and its client opens another when it needs one. A client
 * that sends its request at once is still served. When every connection is
 * busy with a request, the new one is dropped, as `server.maxConnections` would.
 *
 * Returns what the server calls with each request's response: that
 * connection is busy until the response is done, and then idle again.
 */
export const capConnections = (server: Server, max: number): (res: ServerResponse) => void => {
  const open = new Set<Socket>()
  // Each in the order its connections fell quiet: accepted, or done with a response.
  const silent = new Set<Socket>()
  const between = new Set<Socket>()
  // Responses under way on a connection (pipelined requests queue on one).
  const busy = new Map<Socket, number>()
  server.on("connection", (socket: Socket) => {
    if (open.size >= max) {
      const leaving = oldest(silent) ?? oldest(between)
      if (leaving === undefined) return void socket.destroy()
      forget(leaving)
      leaving.destroy()
    }
    open.add(socket)
    silent.add(socket)
    socket.once("close", () => forget(socket))
  })
  const forget = (socket: Socket) => {
    open.delete(socket)
    silent.delete(socket)
    between.delete(socket)
    busy.delete(socket)
  }
  return (res) => {
    const socket = res.socket
    if (socket === null) return
    silent.delete(socket)
    between.delete(socket)
    busy.set(socket, (busy.get(socket) ?? 0) + 1)
    res.once("close", () => {
      const left = (busy.get(socket) ?? 1) - 1
      if (!open.has(socket)) return
      if (left > 0) return void busy.set(socket, left)
      busy.delete(socket)
      between.add(socket)
    })
  }
}
