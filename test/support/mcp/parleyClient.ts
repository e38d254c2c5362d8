import { Effect, Layer } from "effect"
import { McpClient, McpProtocol } from "effect/ai"
import { FetchHttpClient } from "effect/http"

/** What a test may change about the client: headers a browser would add, and the fetch that carries it. */
export interface ClientOptions {
  readonly headers?: Readonly<Record<string, string>>
  readonly fetch?: typeof globalThis.fetch
}

/**
 * Effect's own MCP client against parley's `/mcp` (parley's server is the
 * official SDK's), over streamable HTTP with the key as a bearer token.
 */
export const withParleyClient = <A>(
  gatewayUrl: string,
  secret: string,
  use: (client: McpClient.McpClient) => Effect.Effect<A, unknown>,
  options: ClientOptions = {}
) =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(McpClient.McpClient), use).pipe(
      Effect.provide(
        McpClient.layerHttp({
          name: "test-client",
          version: "1.0.0",
          protocol: McpProtocol.v2025_11_25,
          url: `${gatewayUrl}/mcp`,
          headers: { ...options.headers, authorization: `Bearer ${secret}` }
        }).pipe(Layer.provide(FetchHttpClient.layer))
      ),
      Effect.provideService(FetchHttpClient.Fetch, options.fetch ?? globalThis.fetch)
    )
  )

/** A tool result's text parts, joined. */
export const textOf = (result: { content: ReadonlyArray<unknown> }) =>
  result.content.map((part) => (part as { text?: string }).text ?? "").join("")
