import type { UnfetchablePart } from "../agent/partDownloads.ts"
import type { AccountNotFound, EmailTaken, SignInFailed } from "../auth/accountErrors.ts"
import type {
  CsrfRejected,
  InvalidAdminCredentials,
  MissingAdminCredentials,
  OperatorOnly,
  UnknownAllowListEntries,
  WiderThanAccount
} from "../auth/adminErrors.ts"
import type { AuthServiceUnavailable, KeyNotFound, KeyRevoked, Unauthenticated } from "../auth/authErrors.ts"
import type { ChatPlanFailure } from "../chat/chatPlan.ts"
import type { InvalidRequest, MalformedJson } from "../domain/requestErrors.ts"
import type { LimitExceeded } from "../governance/limitErrors.ts"
import type { RequestNotFound } from "../ledger/ledgerErrors.ts"
import type { McpServerExists, McpServerFromConfig, McpServerNotFound } from "../mcp/mcpErrors.ts"
import type { ProviderCannotTake, ProviderRejected, ProviderUnavailable } from "../models/ProviderFailure.ts"
import type { SandboxElsewhere, SandboxNotFound, SandboxUnavailable } from "../sandbox/Sandbox.ts"
import type { SandboxOwnedByOperator } from "../sandbox/sandboxAccess.ts"
import type { ItemNotFound, PreviousResponseNotFound, ResponseNotFound } from "../store/responseErrors.ts"
import type {
  BodyTooLarge,
  ChatIdTaken,
  EmptyBody,
  ForeignOrigin,
  InvalidMetricsToken,
  MethodNotAllowed,
  ModelNotFound,
  RouteNotFound,
  RunNotFound,
  ServerShuttingDown,
  UnreadableBody
} from "./requestErrors.ts"

/** Every failure an /api/v1 or /admin/v1 request may end in with the spec's error body. */
export type ApiFailure =
  | InvalidRequest
  | ChatPlanFailure
  | UnfetchablePart
  | Unauthenticated
  | AuthServiceUnavailable
  | MissingAdminCredentials
  | InvalidAdminCredentials
  | SignInFailed
  | CsrfRejected
  | OperatorOnly
  | UnknownAllowListEntries
  | WiderThanAccount
  | AccountNotFound
  | KeyNotFound
  | RequestNotFound
  | McpServerNotFound
  | McpServerExists
  | McpServerFromConfig
  | EmailTaken
  | KeyRevoked
  | InvalidMetricsToken
  | ForeignOrigin
  | MalformedJson
  | EmptyBody
  | UnreadableBody
  | BodyTooLarge
  | RouteNotFound
  | RunNotFound
  | ChatIdTaken
  | ModelNotFound
  | ResponseNotFound
  | PreviousResponseNotFound
  | ItemNotFound
  | MethodNotAllowed
  | SandboxNotFound
  | SandboxElsewhere
  | SandboxOwnedByOperator
  | SandboxUnavailable
  | ProviderUnavailable
  | ProviderRejected
  | ProviderCannotTake
  | ServerShuttingDown
  | LimitExceeded

/** The spec's error table: each status with the `error` name its body carries. */
const errorNames = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  // Not in the spec's table: a known path asked with a method it does not answer (docs/DESIGN.md §3.22).
  405: "MethodNotAllowed",
  409: "Conflict",
  413: "PayloadTooLarge",
  429: "TooManyRequests",
  500: "InternalServerError",
  503: "ServiceUnavailable"
} as const

export type Status = keyof typeof errorNames

/** A failure as the client sees it: the fields of the spec's error body. */
export interface WireError {
  readonly status: Status
  readonly error: (typeof errorNames)[Status]
  readonly message: string
  readonly details?: Readonly<Record<string, unknown>> | undefined
}

type Failure<Tag> = Extract<ApiFailure, { readonly _tag: Tag }>
type Row<F> = (failure: F) => WireError

/** The usual row: the failure's own message, with `details` from its facts. */
const row = <F extends { readonly message: string }>(
  status: Status,
  details?: (failure: F) => Readonly<Record<string, unknown>>
): Row<F> =>
(failure) => ({ status, error: errorNames[status], message: failure.message, details: details?.(failure) })

/** `details.error` repeats the message, with further facts. */
const said = <F extends { readonly message: string }>(facts?: (failure: F) => Readonly<Record<string, unknown>>) =>
(
  failure: F
) => ({ error: failure.message, ...facts?.(failure) })

/** Schema issues listed in `details.error`; a body can be wrong in many places, the client needs the first few. */
const MAX_LISTED_ISSUES = 10

/** The one place a failure gets its status (docs/DESIGN.md §2): every failure's tag, its status and its body. */
const table: { readonly [Tag in ApiFailure["_tag"]]: Row<Failure<Tag>> } = {
  InvalidRequest: row(400, (e) => ({ error: e.issues.slice(0, MAX_LISTED_ISSUES).join("; ") })),
  MalformedJson: row(400, (e) => ({ error: e.reason })),
  EmptyBody: row(400, () => ({ error: "empty body" })),
  UnreadableBody: row(400, () => ({ error: "unreadable body" })),
  EmptyConversation: row(400, said()),
  InvalidHistory: row(400, (e) => ({ error: `"${e.path}" ${e.problem}` })),
  InvalidApproval: row(400, (e) => ({ error: `"${e.path}" ${e.problem}` })),
  // Worded as the InvalidHistory of a conversation the AI SDK cannot convert (agent/history.ts).
  ProviderCannotTake: (e) => ({
    status: 400,
    error: errorNames[400],
    message: `Invalid history: "messages" cannot be sent to ${e.provider}: ${e.message}`,
    details: { error: `"messages" cannot be sent to ${e.provider}: ${e.message}`, provider: e.provider }
  }),
  UnfetchablePart: row(400, said()),
  InvalidPromptType: row(400, said((e) => ({ allowed: e.allowed }))),
  UnknownModel: row(400, said((e) => ({ model: e.model }))),
  UnknownTool: row(400, said((e) => ({ tools: [e.tool] }))),
  UnknownSandbox: row(400, said((e) => ({ sandboxId: e.sandboxId }))),
  MissingToolContext: row(
    400,
    said((e) => ({
      missingContext: e.missingContext,
      tools: e.tools,
      // Raised only under contextStrategy=error; skip and report never refuse.
      strategy: "error",
      ...(e.structureErrors.length > 0 ? { structureErrors: e.structureErrors } : {})
    }))
  ),
  TargetExceedsWindow: row(400, said((e) => ({ contextWindow: e.contextWindow }))),
  NoRoomForInput: row(400, said((e) => ({ contextWindow: e.contextWindow }))),
  MissingAuthorization: row(401),
  InvalidAuthorizationFormat: row(401),
  InvalidApiKey: row(401),
  MissingAdminCredentials: row(401),
  InvalidAdminCredentials: row(401),
  SignInFailed: row(401),
  UnknownAllowListEntries: row(400, said((e) => ({ models: e.models, tools: e.tools }))),
  CsrfRejected: row(403),
  ForeignOrigin: row(403, (e) => ({ origin: e.origin })),
  OperatorOnly: row(403),
  WiderThanAccount: row(403, said((e) => ({ models: e.models, tools: e.tools }))),
  AccountNotFound: row(404, (e) => ({ accountId: e.id })),
  KeyNotFound: row(404, (e) => ({ keyId: e.id })),
  RequestNotFound: row(404, (e) => ({ correlationId: e.correlationId })),
  McpServerNotFound: row(404, (e) => ({ serverId: e.id })),
  EmailTaken: row(409, (e) => ({ email: e.email })),
  McpServerExists: row(409, (e) => ({ serverId: e.id, source: e.source })),
  McpServerFromConfig: row(409, (e) => ({ serverId: e.id, source: "config" })),
  KeyRevoked: row(409, (e) => ({ keyId: e.id })),
  // docs/DESIGN.md §6: the external authentication service could not answer; never an admission.
  AuthServiceUnavailable: row(503),
  InvalidMetricsToken: row(401),
  ModelNotAllowed: row(403, (e) => ({ model: e.model })),
  ToolNotAllowed: row(403, (e) => ({ tool: e.tool })),
  SandboxForbidden: row(403, (e) => ({ sandboxId: e.sandboxId })),
  SandboxOwnedByOperator: row(403, (e) => ({ sandboxId: e.sandboxId })),
  RouteNotFound: row(404),
  RunNotFound: row(404, (e) => ({ id: e.id })),
  ChatIdTaken: row(409, (e) => ({ id: e.id })),
  ModelNotFound: row(404, (e) => ({ model: e.model })),
  ResponseNotFound: row(404, (e) => ({ id: e.id })),
  PreviousResponseNotFound: row(400, (e) => ({ previousResponseId: e.id })),
  ItemNotFound: row(400, (e) => ({ itemId: e.id, path: e.path })),
  MethodNotAllowed: row(405, (e) => ({ allowed: e.allowed })),
  SandboxNotFound: (e) => ({
    status: 404,
    error: errorNames[404],
    message: `No sandbox ${e.id}. ${e.remedy ?? "GET /api/v1/sandboxes lists yours."}`,
    details: { sandboxId: e.id }
  }),
  // docs/DESIGN.md §8: the instance named lets a balancer (or the client) send the request there; a sandbox of
  // another backend than the gateway's names no instance (null) and its backend.
  SandboxElsewhere: row(409, (e) => ({ sandboxId: e.sandboxId, instance: e.instance, backend: e.backend })),
  BodyTooLarge: row(413, (e) => ({ limit: e.limit })),
  SandboxUnavailable: row(503, said()),
  // docs/DESIGN.md §9: under contextStrategy=error; skip leaves the tools out. Reasons are free of credentials.
  McpServerUnavailable: row(503, said((e) => ({ server: e.server }))),
  McpToolHeldBack: row(503, said((e) => ({ server: e.server, tools: [e.tool] }))),
  ServerShuttingDown: row(503),
  // docs/DESIGN.md §11; Retry-After is added where the answer is written (errorResponse.ts).
  LimitExceeded: row(
    429,
    (e) => ({ limit: e.limit, scope: e.scope, ...(e.resetAt === undefined ? {} : { resetAt: e.resetAt }) })
  ),
  // docs/DESIGN.md §3.8: unreachable, rate-limited or failing (after retries)
  // is 503 naming the provider; anything else it refuses is 500. Provider
  // messages are already free of keys and stacks.
  ProviderUnavailable: (e) => ({
    status: 503,
    error: errorNames[503],
    message: `The model provider "${e.provider}" is unavailable right now. Retry later.`,
    details: { provider: e.provider, ...(e.status === undefined ? {} : { status: e.status }) }
  }),
  ProviderRejected: (e) => ({
    status: 500,
    error: errorNames[500],
    message: `The model provider "${e.provider}" refused the request: ${e.message}`,
    details: { error: e.message, provider: e.provider }
  })
}

/** What the client is told about a failure. */
export const wireError = (failure: ApiFailure): WireError => (table[failure._tag] as Row<ApiFailure>)(failure)
