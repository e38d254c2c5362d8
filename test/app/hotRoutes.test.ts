import { describe, expect, it } from "vitest"
import { hotRouteOf, upgradeRouteOf } from "../../src/app/hotRoutes.ts"

describe("the hot route table (docs/DESIGN.md §14)", () => {
  const chat = () => undefined
  const resume = () => undefined
  const routes = {
    exact: new Map([["POST /api/v1/chat", chat]]),
    patterns: [{
      matches: (method: string | undefined, url: string) => method === "GET" && url.endsWith("/stream"),
      route: resume
    }],
    upgrades: new Map()
  }

  it("finds a route by method and path, with or without a query", () => {
    expect(hotRouteOf(routes, "POST", "/api/v1/chat")).toBe(chat)
    expect(hotRouteOf(routes, "POST", "/api/v1/chat?x=1")).toBe(chat)
  })

  it("finds a door's own route by its pattern when no exact route is the request's", () => {
    expect(hotRouteOf(routes, "GET", "/api/v1/chat/abc/stream")).toBe(resume)
    expect(hotRouteOf(routes, "POST", "/api/v1/chat/abc/stream")).toBeUndefined()
  })

  it("leaves every other request to the router", () => {
    expect(hotRouteOf(routes, "GET", "/api/v1/chat")).toBeUndefined()
    expect(hotRouteOf(routes, "POST", "/api/v1/chat/")).toBeUndefined()
    expect(hotRouteOf(routes, "POST", "/api/v1/chats")).toBeUndefined()
    expect(hotRouteOf(routes, "POST", undefined)).toBeUndefined()
  })

  it("finds a door's WebSocket mode by GET, its path (with or without a query) and a WebSocket, and nothing else", () => {
    const socket = () => undefined
    const withSocket = { ...routes, upgrades: new Map([["/v1/responses", socket]]) }
    expect(upgradeRouteOf(withSocket, "GET", "/v1/responses", "websocket")).toBe(socket)
    expect(upgradeRouteOf(withSocket, "GET", "/v1/responses?x=1", "WebSocket")).toBe(socket)
    expect(upgradeRouteOf(withSocket, "POST", "/v1/responses", "websocket")).toBeUndefined()
    expect(upgradeRouteOf(withSocket, "GET", "/v1/responses/abc", "websocket")).toBeUndefined()
    expect(upgradeRouteOf(withSocket, "GET", "/v1/responses", "h2c")).toBeUndefined()
    expect(upgradeRouteOf(withSocket, "GET", "/v1/responses", undefined)).toBeUndefined()
    expect(upgradeRouteOf(withSocket, "GET", undefined, "websocket")).toBeUndefined()
  })
})
