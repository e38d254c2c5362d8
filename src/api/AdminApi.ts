import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AdminAuthentication } from "./AdminAuthentication.ts"
import {
  AccountView,
  AdminSandboxView,
  CatalogView,
  CreateAccount,
  CreateKey,
  KeptRunView,
  KeyView,
  LimitsStatusView,
  RequestView,
  RotateKey,
  SignIn,
  UpdateAccount,
  UpdateKey,
  UsageRowView
} from "./adminSchemas.ts"
import { errorAt } from "./errorSchemas.ts"
import { CreateMcpServer, McpServerView, UpdateMcpServer } from "./mcpServerSchemas.ts"
import { ProviderView, RouteView } from "./providerSchemas.ts"

const ok = <S extends Schema.Top>(identifier: string, data: S) =>
  Schema.Struct({ success: Schema.Literal(true), data }).annotate({ identifier })

const AccountResponse = ok("AdminAccountResponse", Schema.Struct({ account: AccountView }))
const KeyResponse = ok("AdminKeyResponse", Schema.Struct({ key: KeyView }))
const McpServerResponse = ok("AdminMcpServerResponse", Schema.Struct({ server: McpServerView }))
const KeySecretResponse = ok("AdminKeySecretResponse", Schema.Struct({ key: KeyView, secret: Schema.String }))

const LimitsResponse = ok("AdminLimitsResponse", LimitsStatusView)

const params = { id: Schema.String }
const runParams = { id: Schema.String, chatId: Schema.String }
const byAccount = { accountId: Schema.optional(Schema.String) }
const authorized = [errorAt(401), errorAt(403), errorAt(500)]
// Query values arrive as text and are checked by the handler, so a bad one is a 400 in the spec's error body.
const text = (description: string) => Schema.optional(Schema.String).annotate({ description })
const usageQuery = {
  keyId: text("Only this key (another account's: 404)"),
  accountId: text("Only this account; a session may name only its own (another: 404)"),
  model: text("Only this model"),
  from: text("ISO-8601 instant, inclusive; default: 30 days before to"),
  to: text("ISO-8601 instant, exclusive; default: now"),
  groupBy: text("hour | day | model | key; default: day")
}
const requestsQuery = {
  keyId: text("Only this key (another account's: 404)"),
  limit: text("1 to 500; default: 50"),
  before: text("ISO-8601 instant: only requests before it (the last row's time of the previous page)")
}
const describe = (description: string) => OpenApi.annotations({ description })

const keyState = (name: "activate" | "deactivate" | "revoke", description: string) =>
  HttpApiEndpoint.post(`${name}Key`, `/keys/:id/${name}`, {
    params,
    success: KeyResponse,
    error: [...authorized, errorAt(404), errorAt(409)]
  }).annotateMerge(describe(description)).middleware(AdminAuthentication)

/**
 * The admin API (docs/DESIGN.md §6): accounts, their keys, usage, requests, MCP servers and sandboxes. Every
 * route but sign-in needs the operator token or a console session; a session
 * sees only its own account (another's keys, requests and sandboxes answer 404).
 */
export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("signIn", "/session", {
      payload: SignIn,
      success: ok("AdminSessionResponse", Schema.Struct({ csrfToken: Schema.String, account: AccountView })),
      error: [errorAt(400), errorAt(401), errorAt(500)]
    }).annotateMerge(describe(
      "Signs an account holder in: sets the HttpOnly cookie parley_session (12 h) and answers the X-CSRF-Token every unsafe request of the session must send. Failed sign-ins are slowed."
    )),
    HttpApiEndpoint.delete("signOut", "/session", {
      success: ok("AdminSignedOut", Schema.Struct({ signedOut: Schema.Literal(true) })),
      error: authorized
    }).middleware(AdminAuthentication),
    HttpApiEndpoint.get("listAccounts", "/accounts", {
      success: ok("AdminAccountsResponse", Schema.Struct({ accounts: Schema.Array(AccountView) })),
      error: authorized
    }).annotateMerge(describe("Operator only.")).middleware(AdminAuthentication),
    HttpApiEndpoint.post("createAccount", "/accounts", {
      payload: CreateAccount,
      success: AccountResponse.pipe(HttpApiSchema.status(201)),
      error: [...authorized, errorAt(400), errorAt(409)]
    }).annotateMerge(describe("Operator only. Allow-list entries must name the catalog's models and tools."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.get("getAccount", "/accounts/:id", {
      params,
      success: AccountResponse,
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe("Operator only.")).middleware(AdminAuthentication),
    HttpApiEndpoint.patch("updateAccount", "/accounts/:id", {
      params,
      payload: UpdateAccount,
      success: AccountResponse,
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe("Operator only. A disabled account's keys and sessions stop working within 5 s."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.get("accountLimits", "/accounts/:id/limits", {
      params,
      success: LimitsResponse,
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe(
      "The account's limits and their current use over all its keys. A session may read its own account's only (another: 404)."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("listKeys", "/keys", {
      query: byAccount,
      success: ok("AdminKeysResponse", Schema.Struct({ keys: Schema.Array(KeyView) })),
      error: authorized
    }).annotateMerge(describe("The caller's account's keys; the operator sees every key, or one account's."))
      .middleware(
        AdminAuthentication
      ),
    HttpApiEndpoint.post("createKey", "/keys", {
      payload: CreateKey,
      success: KeySecretResponse.pipe(HttpApiSchema.status(201)),
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe(
      "Creates a key; its secret appears in this answer only. Entries outside the catalog: 400; wider than the account: 403."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("getKey", "/keys/:id", {
      params,
      success: KeyResponse,
      error: [...authorized, errorAt(404)]
    }).middleware(AdminAuthentication),
    HttpApiEndpoint.patch("updateKey", "/keys/:id", {
      params,
      payload: UpdateKey,
      success: KeyResponse,
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe("Edits name, allow-lists and expiry; entries are checked as on creation."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.get("keyLimits", "/keys/:id/limits", {
      params,
      success: LimitsResponse,
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe(
      "The key's own limits and their current use (its account's are at /accounts/{id}/limits); reading counts nothing."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("keyRuns", "/keys/:id/runs", {
      params,
      query: { limit: text("1 to 200; default: 50") },
      success: ok("AdminKeptRunsResponse", Schema.Struct({ runs: Schema.Array(KeptRunView) })),
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe(
      "The key's resumable runs still kept (running, or ended within PARLEY_STREAM_RETENTION), newest first: each chat's latest."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.post("stopKeyRun", "/keys/:id/runs/:chatId/stop", {
      params: runParams,
      success: ok(
        "AdminKeptRunStop",
        Schema.Struct({ id: Schema.String, status: Schema.Literals(["stopping", "ended"]) })
      ),
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe(
      "Stops the key's run kept under the chat id on whichever instance runs it (stopping), or says it had ended; none: 404."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("keyRunStream", "/keys/:id/runs/:chatId/stream", {
      params: runParams,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
        description: "The kept stream from its start (the run's own protocol), followed live while the run goes on"
      }),
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe(
      "Replays the key's kept run as GET /api/v1/chat/{id}/stream does (204 when it kept nothing); none: 404."
    )).middleware(AdminAuthentication),
    keyState("activate", "Accepts the key again (not a revoked one)."),
    keyState("deactivate", "Refuses the key until it is activated; within 5 s."),
    keyState("revoke", "Refuses the key for good; within 5 s. Final."),
    HttpApiEndpoint.post("rotateKey", "/keys/:id/rotate", {
      params,
      payload: RotateKey,
      success: KeySecretResponse,
      error: [...authorized, errorAt(400), errorAt(404), errorAt(409)]
    }).annotateMerge(describe(
      "A new secret (in this answer only); the old one keeps working for graceSeconds (default 86400, at most 30 days), then 401."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("catalog", "/catalog", {
      success: ok("AdminCatalogResponse", CatalogView),
      error: authorized
    }).annotateMerge(describe(
      "The models and tools an allow-list may name: all of them for the operator, the account's for a session."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("usage", "/usage", {
      query: usageQuery,
      success: ok("AdminUsageResponse", Schema.Struct({ rows: Schema.Array(UsageRowView) })),
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe(
      "Usage summed per UTC hour or day, model or key over [from, to). The caller's account; the operator's: all, or accountId's."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("listRequests", "/requests", {
      query: requestsQuery,
      success: ok("AdminRequestsResponse", Schema.Struct({ requests: Schema.Array(RequestView) })),
      error: [...authorized, errorAt(400), errorAt(404)]
    }).annotateMerge(describe(
      "The caller's account's requests, newest first: ledger rows, never content or secrets. The operator sees all."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("getRequest", "/requests/:correlationId", {
      params: { correlationId: Schema.String },
      success: ok("AdminRequestResponse", Schema.Struct({ request: RequestView })),
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe("The newest request with this correlation id; another account's: 404."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.get("listProviders", "/providers", {
      success: ok(
        "AdminProvidersResponse",
        Schema.Struct({ providers: Schema.Array(ProviderView), routes: Schema.Array(RouteView) })
      ),
      error: authorized
    }).annotateMerge(describe(
      "Operator only. Each model provider with its models and its cooldown as every instance sees it, and each route with its targets."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("listMcpServers", "/mcp-servers", {
      success: ok("AdminMcpServersResponse", Schema.Struct({ servers: Schema.Array(McpServerView) })),
      error: authorized
    }).annotateMerge(describe(
      "Operator only. The config file's servers and those registered here, with their tools (an unreachable server says why)."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.post("createMcpServer", "/mcp-servers", {
      payload: CreateMcpServer,
      success: McpServerResponse.pipe(HttpApiSchema.status(201)),
      error: [...authorized, errorAt(400), errorAt(409)]
    }).annotateMerge(describe(
      "Operator only. Registers a streamable-HTTP server (stdio servers: config file only); its tools reach every instance within 1 s. A taken id: 409."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("getMcpServer", "/mcp-servers/:id", {
      params,
      success: McpServerResponse,
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe("Operator only.")).middleware(AdminAuthentication),
    HttpApiEndpoint.patch("updateMcpServer", "/mcp-servers/:id", {
      params,
      payload: UpdateMcpServer,
      success: McpServerResponse,
      error: [...authorized, errorAt(400), errorAt(404), errorAt(409)]
    }).annotateMerge(describe("Operator only. A config-file server is changed in the file: 409."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.delete("deleteMcpServer", "/mcp-servers/:id", {
      params,
      success: ok("AdminMcpServerDeleted", Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) })),
      error: [...authorized, errorAt(404), errorAt(409)]
    }).annotateMerge(describe("Operator only. Its tools go from every instance within 1 s; a config-file server: 409."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.post("refreshMcpServer", "/mcp-servers/:id/refresh", {
      params,
      success: McpServerResponse,
      error: [...authorized, errorAt(404)]
    }).annotateMerge(describe(
      "Operator only. Accepts its tools' input schemas as they are now, releasing held-back tools, and lists them again."
    )).middleware(AdminAuthentication),
    HttpApiEndpoint.get("listSandboxes", "/sandboxes", {
      query: byAccount,
      success: ok("AdminSandboxesResponse", Schema.Struct({ sandboxes: Schema.Array(AdminSandboxView) })),
      error: authorized
    }).annotateMerge(describe("The caller's account's sandboxes; the operator sees all, or one account's."))
      .middleware(AdminAuthentication),
    HttpApiEndpoint.delete("deleteSandbox", "/sandboxes/:id", {
      params,
      success: ok("AdminSandboxDeleted", Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) })),
      error: [...authorized, errorAt(404), errorAt(409)]
    }).annotateMerge(describe(
      "Deletes it with its workspace. Only the instance holding it can: another answers 409 naming that instance."
    )).middleware(AdminAuthentication)
  )
  .prefix("/admin/v1")
{}
