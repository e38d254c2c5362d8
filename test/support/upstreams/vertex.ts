import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody } from "../../../src/demo/upstream/readBody.ts"
import { geminiWire } from "./gemini.ts"
import { type ScriptedUpstream, startScripted, type Wire } from "./scripted.ts"

/**
 * Gemini on Vertex AI, as `@ai-sdk/google-vertex` talks it: the Gemini API's
 * bodies, stream and errors (`gemini.ts`) under Vertex's paths, `POST
 * …/publishers/google/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, either express mode's
 * (`/v1/publishers/google`, the key in `x-goog-api-key`) or a project's
 * (`/v1beta1/projects/{project}/locations/{location}/publishers/google`, a
 * Google access token as a bearer token).
 */
export const EXPRESS_PATH = "/v1/publishers/google"

export const projectPath = (project: string, location: string) =>
  `/v1beta1/projects/${project}/locations/${location}/publishers/google`

const ROUTE =
  /^\/v1(?:beta1)?(?:\/projects\/[^/]+\/locations\/[^/]+)?\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)$/

export const vertexWire = (basePath: string): Wire => ({
  ...geminiWire,
  basePath,
  authorized: (headers, key) => headers["x-goog-api-key"] === key || headers.authorization === `Bearer ${key}`,
  unauthorized: () => ({
    status: 401,
    headers: { "content-type": "application/json; charset=UTF-8" },
    pieces: [JSON.stringify({
      error: {
        code: 401,
        message:
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        status: "UNAUTHENTICATED"
      }
    })]
  }),
  chatRoute: (method, url) => {
    const match = ROUTE.exec(url.pathname)
    if (method !== "POST" || match === null || !url.pathname.startsWith(basePath)) return undefined
    const streaming = match[2] === "streamGenerateContent"
    if (streaming && url.searchParams.get("alt") !== "sse") return undefined
    return { model: match[1]!, streaming }
  }
})

/** A scripted Vertex AI on loopback; `credential` is the express-mode key or the access token it expects. */
export const startVertex = (credential: string, basePath = EXPRESS_PATH): Promise<ScriptedUpstream> =>
  startScripted(vertexWire(basePath), { apiKey: credential })

/**
 * Google's token exchange (STS, RFC 8693) on loopback, where an
 * `external_account` credentials file (workload identity federation) sends
 * `google-auth-library` for an access token: Google credentials without a
 * Google account, offline.
 */
export const startGoogleSts = async (accessToken: string) => {
  const exchanges: Array<URLSearchParams> = []
  const server = createServer((req, res) =>
    void readBody(req).then((text) => {
      exchanges.push(new URLSearchParams(text))
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({
        access_token: accessToken,
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: 3600
      }))
    })
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1/token`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** An `external_account` credentials file whose subject token is in `tokenFile` and whose exchange goes to `stsUrl`. */
export const externalAccountCredentials = (stsUrl: string, tokenFile: string) => ({
  type: "external_account",
  audience: "//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/parley/providers/test",
  subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
  token_url: stsUrl,
  credential_source: { file: tokenFile }
})
