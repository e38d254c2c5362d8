import type { JSONValue } from "@ai-sdk/provider"
import { Effect, Result, Schema } from "effect"
import type { DesktopAction, Point } from "../../sandbox/desktopActions.ts"
import type { DisplaySize } from "../../sandbox/Sandbox.ts"
import type { SandboxProvider } from "../../sandbox/SandboxProvider.ts"
import { defineTool } from "../defineTool.ts"
import { sandboxOf } from "../sandboxOf.ts"
import { ToolFailure, type ToolModelOutput } from "../Tool.ts"

const actions = [
  "screenshot",
  "left_click",
  "right_click",
  "double_click",
  "middle_click",
  "mouse_move",
  "left_click_drag",
  "type",
  "key",
  "scroll",
  "cursor_position",
  "wait"
] as const

const Coordinate = Schema.Array(Schema.Int).check(Schema.isBetweenLength(2, 2))

const ComputerInput = Schema.Struct({
  action: Schema.Literals(actions),
  coordinate: Schema.optional(Coordinate.annotate({
    description:
      "[x, y] in pixels from the top-left corner: the target of mouse_move, clicks, left_click_drag and scroll"
  })),
  start_coordinate: Schema.optional(Coordinate.annotate({ description: "[x, y] where left_click_drag starts" })),
  text: Schema.optional(Schema.String.annotate({
    description: "What to type (type), or xdotool key names such as \"Return\" or \"ctrl+s\" (key)"
  })),
  scroll_direction: Schema.optional(Schema.Literals(["up", "down", "left", "right"])),
  scroll_amount: Schema.optional(Schema.Int.annotate({ description: "Scroll wheel clicks (default 3)" })),
  duration: Schema.optional(Schema.Number.annotate({ description: "Seconds to wait (wait)" }))
})
type ComputerInput = typeof ComputerInput.Type

/** A screenshot in the output: the media part the model sees as an image. */
const Media = Schema.Struct({
  type: Schema.Literal("media"),
  mediaType: Schema.Literal("image/png"),
  data: Schema.String,
  width: Schema.Number,
  height: Schema.Number
})

const ComputerOutput = Schema.Struct({
  action: Schema.String,
  text: Schema.String,
  screenshot: Schema.optional(Media)
})

const at = (point: Point | undefined) => point === undefined ? "at the pointer" : `at (${point[0]}, ${point[1]})`

const point = (value: ReadonlyArray<number> | undefined): Point | undefined =>
  value === undefined ? undefined : [value[0] ?? 0, value[1] ?? 0]

const needs = (field: string, action: string) => new ToolFailure(`"${field}" is required for ${action}`)

const toAction = (input: ComputerInput): DesktopAction | ToolFailure => {
  const coordinate = point(input.coordinate)
  switch (input.action) {
    case "screenshot":
    case "cursor_position":
      return { action: input.action }
    case "left_click":
    case "right_click":
    case "middle_click":
    case "double_click":
      return { action: input.action, coordinate }
    case "mouse_move":
      return coordinate === undefined ? needs("coordinate", input.action) : { action: input.action, coordinate }
    case "left_click_drag": {
      const start = point(input.start_coordinate)
      if (start === undefined) return needs("start_coordinate", input.action)
      return coordinate === undefined ? needs("coordinate", input.action) : { action: input.action, start, coordinate }
    }
    case "type":
    case "key":
      return input.text === undefined ? needs("text", input.action) : { action: input.action, text: input.text }
    case "scroll":
      return input.scroll_direction === undefined
        ? needs("scroll_direction", input.action)
        : { action: input.action, direction: input.scroll_direction, amount: input.scroll_amount ?? 3, coordinate }
    case "wait":
      return input.duration === undefined
        ? needs("duration", input.action)
        : { action: input.action, seconds: input.duration }
  }
}

const summary = (action: DesktopAction, display: DisplaySize, cursor: Point | undefined): string => {
  switch (action.action) {
    case "screenshot":
      return `Screenshot of the ${display.width}x${display.height} display.`
    case "cursor_position":
      return cursor === undefined
        ? "The pointer position is unknown."
        : `The pointer is at (${cursor[0]}, ${cursor[1]}).`
    case "mouse_move":
      return `Moved the pointer to (${action.coordinate[0]}, ${action.coordinate[1]}).`
    case "left_click":
    case "right_click":
    case "middle_click":
    case "double_click":
      return `${action.action.replace("_", " ")} ${at(action.coordinate)}.`
    case "left_click_drag":
      return `Dragged with the left button from (${action.start[0]}, ${action.start[1]}) to (${action.coordinate[0]}, ${
        action.coordinate[1]
      }).`
    case "type":
      return `Typed ${action.text.length} characters.`
    case "key":
      return `Pressed ${action.text}.`
    case "scroll":
      return `Scrolled ${action.direction} by ${action.amount} ${at(action.coordinate)}.`
    case "wait":
      return `Waited ${action.seconds} s.`
  }
}

const decodeOutput = Schema.decodeUnknownResult(ComputerOutput)

/**
 * The model sees the summary as text and a screenshot as an image. An output
 * of another shape (a history edited by the client, or pruned of its image)
 * goes as JSON.
 */
export const computerModelOutput = (output: unknown): ToolModelOutput => {
  const decoded = decodeOutput(output)
  if (Result.isFailure(decoded)) return { type: "json", value: output as JSONValue }
  const { screenshot, text } = decoded.success
  return {
    type: "content",
    value: [
      { type: "text", text },
      ...(screenshot === undefined
        ? []
        : [{
          type: "file" as const,
          mediaType: screenshot.mediaType,
          data: { type: "data" as const, data: screenshot.data }
        }])
    ]
  }
}

const description = (display: DisplaySize) =>
  [
    `Operates the ${display.width}x${display.height} desktop of the desktop sandbox named by the request's sandboxId`,
    "(a sandbox created with desktop: true). Actions: screenshot (returns an image), left_click, right_click, double_click,",
    "middle_click (at coordinate, or at the pointer), mouse_move, left_click_drag (start_coordinate to coordinate),",
    "type (text), key (xdotool key names such as \"Return\" or \"ctrl+s\", space-separated), scroll (scroll_direction,",
    "scroll_amount, coordinate), cursor_position, wait (duration in seconds).",
    `Coordinates are [x, y] pixels: x from 0 to ${display.width - 1}, y from 0 to ${display.height - 1}.`,
    "Start programs with the bash tool in the background (e.g. `xterm &`); take a screenshot to see the result of an action."
  ].join(" ")

/** The `computer` tool (docs/DESIGN.md §3.12): computer use on a desktop sandbox. */
export const makeComputerTool = (sandboxes: SandboxProvider["Service"]) =>
  defineTool({
    name: "computer",
    description: description(sandboxes.display),
    category: "sandbox",
    inputSchema: ComputerInput,
    requiresSandbox: true,
    promptTypes: ["bossJobsiteSystemPrompt", "generalComputerSystemPrompt"],
    toModelOutput: computerModelOutput,
    execute: (input, execution) =>
      Effect.gen(function*() {
        const action = toAction(input)
        if (action instanceof ToolFailure) return yield* Effect.fail(action)
        const sandbox = yield* sandboxOf(sandboxes, execution)
        const result = yield* sandboxes.desktop(sandbox.id, action).pipe(
          Effect.mapError((error) => new ToolFailure(error.message))
        )
        const display = sandboxes.display
        return {
          action: action.action,
          text: summary(action, display, result.cursor),
          ...(result.cursor === undefined ? {} : { cursor: { x: result.cursor[0], y: result.cursor[1] } }),
          ...(result.screenshot === undefined ? {} : {
            screenshot: {
              type: "media" as const,
              mediaType: "image/png" as const,
              data: Buffer.from(result.screenshot).toString("base64"),
              width: display.width,
              height: display.height
            }
          })
        }
      }).pipe(Effect.withSpan("computer.execute", { attributes: { "computer.action": input.action } }))
  })
