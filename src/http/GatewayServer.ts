import { Server } from "node:http"
import { isChatRequest, type NodeRoute } from "./chatRoute.ts"

/**
 * Node's HTTP server with the chat route in front of the router: POST
 * /api/v1/chat goes straight to `chatRoute` once it is set; every other
 * request (and chat before the route is ready) goes to the listeners the
 * Effect HTTP server registered. `checkContinue` is the same request from a
 * client that sent `Expect: 100-continue`.
 */
export class GatewayServer extends Server {
  chatRoute: NodeRoute | undefined

  override emit(event: string, ...args: Array<any>): boolean {
    if (
      this.chatRoute !== undefined && (event === "request" || event === "checkContinue") &&
      isChatRequest(args[0].method, args[0].url)
    ) {
      this.chatRoute(args[0], args[1])
      return true
    }
    return super.emit(event, ...args)
  }
}
