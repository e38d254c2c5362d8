import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ChatRequest } from "../domain/ChatRequest.ts"
import { ChatResponse } from "../domain/ChatResponse.ts"
import { ValidationReport } from "../domain/ValidationReport.ts"
import { Authentication } from "./Authentication.ts"
import { errorAt } from "./errorSchemas.ts"

const EventStream = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/event-stream" })).annotate({
  description:
    "AI SDK UI message stream (v1): `data: <chunk JSON>` per chunk, `event: tool` on tool chunks, `data: [DONE]` at the end."
})

export class ChatApi extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.post("chat", "/chat", {
      payload: ChatRequest,
      success: [EventStream, ChatResponse, ValidationReport],
      error: [errorAt(400), errorAt(401), errorAt(403), errorAt(409), errorAt(413), errorAt(500), errorAt(503)]
    }).annotateMerge(
      OpenApi.annotations({
        description:
          "Runs the conversation with server-side tools. stream=true (default): server-sent events; stream=false: one ChatResponse; validateOnly=true or contextStrategy=report: a ValidationReport."
      })
    )
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
