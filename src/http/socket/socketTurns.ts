import { Cause, Effect, Exit, Fiber } from "effect"
import { ApiKeys } from "../../auth/ApiKeys.ts"
import { ChatPlanner } from "../../chat/ChatPlanner.ts"
import { InvalidRequest } from "../../domain/requestErrors.ts"
import { UsageLedger } from "../../ledger/UsageLedger.ts"
import { requestObserver } from "../../observability/observeRequest.ts"
import type { RequestLog } from "../../observability/RequestLog.ts"
import type { WriteStage } from "../answerWrites.ts"
import { makeChatRun, type RequestFacts } from "../chatRun.ts"
import { uuidV7 } from "../CorrelationId.ts"
import { logUnexpected } from "../errorResponse.ts"
import type { ApiFailure } from "../errorTable.ts"
import { ServerShuttingDown } from "../requestErrors.ts"
import { ServerDrain } from "../ServerDrain.ts"
import { makeWriteFailureReport } from "../writeFailures.ts"
import { openSocket, warmTurn } from "./socketAnswers.ts"
import type { SocketConnection } from "./SocketConnection.ts"

/** One turn as it goes: its ledger facts, its log line, and the status its ledger row and metrics say. */
export interface TurnState {
  readonly connection: SocketConnection
  readonly correlationId: string
  readonly facts: RequestFacts
  readonly log: RequestLog
  status: number
  wire: unknown
}

const REPORT_OVER_HTTP =
  `"contextStrategy" "report" answers with a report, not a stream: send that request over HTTP (POST)`

/**
 * The turns of a door's WebSocket connections (docs/DESIGN.md §14): each
 * text message a request of its door as the chat route runs one
 * (`hotRoute.ts`), with the key the upgrade carried verified again (a key
 * revoked since stops at its next turn), the door's decoding and planning,
 * governance's admission, limits and budgets, one ledger row and one
 * request line; its events stream as messages, a failure before they began
 * is the door's error message. A client that leaves cancels its turn; the
 * server stopping lets it finish within the grace, as a request.
 */
export const makeSocketTurns = Effect.gen(function*() {
  const keys = yield* ApiKeys
  const planner = yield* ChatPlanner
  const ledger = yield* UsageLedger
  const drain = yield* ServerDrain
  const report = yield* makeWriteFailureReport
  const observer = yield* requestObserver
  const chatRun = yield* makeChatRun
  const scope = yield* Effect.scope
  const context = yield* Effect.context<never>()

  // Made once: a generator function made per turn would keep each turn's objects past two scavenges (DESIGN §12).
  const run = Effect.fnUntraced(function*(state: TurnState, text: string) {
    const { connection, facts, log } = state
    const { protocol } = connection.session
    const key = facts.key = yield* keys.authenticate(connection.authorization, connection.apiKey)
    log.keyed(key)
    const { body, generate } = yield* connection.session.turn(text)
    facts.model = protocol.namedModel(body)
    const { request, wire } = yield* protocol.decode(body, key)
    facts.model = request.model
    state.wire = wire
    const plan = facts.plan = yield* planner.plan(generate ? request : { ...request, prepareOnly: true }, key)
    if (plan._tag === "Report") return yield* new InvalidRequest({ issues: [REPORT_OVER_HTTP] })
    const answering = { plan, wire, correlationId: state.correlationId }
    if (!generate) return yield* warmTurn(protocol, connection, answering, facts)
    return yield* chatRun.stream(protocol, connection, openSocket, answering, {}, facts, log)
  })

  const tell = (state: TurnState, failure: ApiFailure | undefined) => {
    const { connection, correlationId, facts } = state
    const sse = facts.sse
    if (sse?.started === true) return sse.fail(failure)
    const error = connection.session.protocol.errorBody(failure, correlationId, state.wire)
    state.status = error.status
    connection.send(connection.session.errorMessage(error))
  }

  // A failure before the answer began is an error message; after, it ends the stream (docs/DESIGN.md §3.3).
  const fail = (state: TurnState, cause: Cause.Cause<ApiFailure>) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.void
    const failure = Cause.findErrorOption(cause)
    if (failure._tag === "Some") {
      state.log.outcome = failure.value._tag
      if (failure.value._tag === "LimitExceeded") state.facts.refusedLimit = failure.value.limit
      return Effect.sync(() => tell(state, failure.value))
    }
    state.log.outcome = "unexpected"
    return Effect.andThen(logUnexpected(cause, state.correlationId), Effect.sync(() => tell(state, undefined)))
  }

  const record = (state: TurnState, exit: Exit.Exit<unknown, unknown>) =>
    Effect.sync(() =>
      ledger.recordChat(state.facts, state.correlationId, {
        status: state.status,
        firstByteAt: state.facts.sse?.firstByteAt,
        cancelled: Exit.hasInterrupts(exit) && state.facts.writeFailure === undefined
      })
    )

  // A write that threw ends the turn and the connection, which cannot be trusted with another (DESIGN §3.25).
  const writeFailed = (state: TurnState, error: unknown, stage: WriteStage) => {
    if (state.facts.writeFailure !== undefined) return
    state.facts.writeFailure = stage
    state.log.outcome = "ResponseWriteFailed"
    report(state.facts.protocol, stage, error, state.correlationId)
    state.connection.terminate()
  }

  /** Starts a turn of `connection` for a text message; the connection learns its end by the fiber. */
  return (connection: SocketConnection, text: string) => {
    const correlationId = uuidV7()
    const log = observer.start(correlationId, "GET", connection.path)
    const state: TurnState = {
      connection,
      correlationId,
      log,
      status: 200,
      wire: undefined,
      facts: {
        startedAt: Date.now(),
        protocol: connection.session.protocol.name,
        writeFailed: (error, stage) => writeFailed(state, error, stage)
      }
    }
    const program = observer.observe(
      log,
      run(state, text).pipe(
        Effect.catchCause((cause) => fail(state, cause)),
        Effect.onExit((exit) => record(state, exit))
      ),
      (exit) => Exit.hasInterrupts(exit) && state.facts.sse?.started !== true ? 499 : state.status
    )
    const fiber = Fiber.runIn(Effect.runForkWith(context)(program), scope)
    // The grace is over (docs/DESIGN.md §8): the turn is stopped (its tools killed) and the client told so.
    const release = drain.hold(() => {
      fiber.addObserver(() => tell(state, new ServerShuttingDown()))
      fiber.interruptUnsafe()
    })
    fiber.addObserver(release)
    return fiber
  }
})
