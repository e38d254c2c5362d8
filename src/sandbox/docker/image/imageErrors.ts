import { Schema } from "effect"

/** The engine did not answer; the message says how to start one or point DOCKER_HOST at one. */
export class EngineUnreachable extends Schema.TaggedError<EngineUnreachable>()("EngineUnreachable", {
  address: Schema.String,
  message: Schema.String
}) {}

/** Building or importing the sandbox image failed; the message says why and what to do. */
export class ImageBuildFailed extends Schema.TaggedError<ImageBuildFailed>()("ImageBuildFailed", {
  message: Schema.String
}) {}
