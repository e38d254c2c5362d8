import type { Server } from "node:http"
import type { Socket } from "node:net"

/**
 * Caps the client connections `server` holds at `max`, below the open-file
 * limit, so a flood of connections cannot leave the gateway without
 * descriptors for its provider calls. Past the cap a new connection takes
 * the place of the oldest one that has not yet sent a request head: a flood
 * of idle, half-sent connections is made of those, and a client that sends
 * its request at once is still served. When every connection is busy with a
 * request, the new one is dropped, as `server.maxConnections` would.
 *
 * Returns what the server calls with each request's socket: that connection
 * has sent a request head and is no longer the first to go.
 */
export const capConnections = (server: Server, max: number): (socket: Socket) => void => {
  const open = new Set<Socket>()
  // In the order they were accepted.
  const silent = new Set<Socket>()
  server.on("connection", (socket: Socket) => {
    if (open.size >= max) {
      const oldest: Socket | undefined = silent.values().next().value
      if (oldest === undefined) return void socket.destroy()
      forget(oldest)
      oldest.destroy()
    }
    open.add(socket)
    silent.add(socket)
    socket.once("close", () => forget(socket))
  })
  const forget = (socket: Socket) => {
    open.delete(socket)
    silent.delete(socket)
  }
  return (socket) => void silent.delete(socket)
}
