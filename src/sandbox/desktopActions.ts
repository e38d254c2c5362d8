import { type DisplaySize, InvalidDesktopAction } from "./Sandbox.ts"

export type Point = readonly [x: number, y: number]

export type ScrollDirection = "up" | "down" | "left" | "right"

/** What a desktop can be asked to do: the computer-use action set. */
export type DesktopAction =
  | { readonly action: "screenshot" }
  | { readonly action: "cursor_position" }
  | { readonly action: "mouse_move"; readonly coordinate: Point }
  | {
    readonly action: "left_click" | "right_click" | "middle_click" | "double_click"
    readonly coordinate?: Point | undefined
  }
  | { readonly action: "left_click_drag"; readonly start: Point; readonly coordinate: Point }
  | { readonly action: "type"; readonly text: string }
  | { readonly action: "key"; readonly text: string }
  | {
    readonly action: "scroll"
    readonly direction: ScrollDirection
    readonly amount: number
    readonly coordinate?: Point | undefined
  }
  | { readonly action: "wait"; readonly seconds: number }

/** Longest text typed in one action, and longest wait. */
export const MAX_TYPE_LENGTH = 4_000
export const MAX_WAIT_SECONDS = 30

const pointsOf = (action: DesktopAction): ReadonlyArray<Point> => {
  switch (action.action) {
    case "mouse_move":
      return [action.coordinate]
    case "left_click_drag":
      return [action.start, action.coordinate]
    case "left_click":
    case "right_click":
    case "middle_click":
    case "double_click":
    case "scroll":
      return action.coordinate === undefined ? [] : [action.coordinate]
    default:
      return []
  }
}

/** Coordinates must be whole pixels on the display; text and waits are bounded. */
export const checkAction = (action: DesktopAction, display: DisplaySize): InvalidDesktopAction | undefined => {
  for (const [x, y] of pointsOf(action)) {
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= display.width || y >= display.height) {
      return new InvalidDesktopAction({
        message: `Coordinate (${x}, ${y}) is off the ${display.width}x${display.height} display: x must be 0-${
          display.width - 1
        } and y 0-${display.height - 1}`
      })
    }
  }
  if (
    (action.action === "type" || action.action === "key") &&
    (action.text.length === 0 || action.text.length > MAX_TYPE_LENGTH)
  ) {
    return new InvalidDesktopAction({ message: `"text" must be 1 to ${MAX_TYPE_LENGTH} characters` })
  }
  if (action.action === "key" && !/^[\w+\- ]+$/.test(action.text)) {
    return new InvalidDesktopAction({
      message: `"text" for key must be xdotool key names such as "Return", "ctrl+s" or "alt+Tab", separated by spaces`
    })
  }
  if (action.action === "scroll" && (!Number.isInteger(action.amount) || action.amount < 1 || action.amount > 50)) {
    return new InvalidDesktopAction({ message: `"scroll_amount" must be a whole number from 1 to 50` })
  }
  if (action.action === "wait" && !(action.seconds > 0 && action.seconds <= MAX_WAIT_SECONDS)) {
    return new InvalidDesktopAction({
      message: `"duration" must be more than 0 and at most ${MAX_WAIT_SECONDS} seconds`
    })
  }
  return undefined
}

const moveTo = (point: Point | undefined): ReadonlyArray<string> =>
  point === undefined ? [] : ["mousemove", "--sync", String(point[0]), String(point[1])]

const scrollButton: Record<ScrollDirection, string> = { up: "4", down: "5", left: "6", right: "7" }

/** The xdotool arguments that perform an action; undefined for actions xdotool does not do. */
export const xdotoolArgs = (action: DesktopAction): ReadonlyArray<string> | undefined => {
  switch (action.action) {
    case "mouse_move":
      return moveTo(action.coordinate)
    case "left_click":
      return [...moveTo(action.coordinate), "click", "1"]
    case "middle_click":
      return [...moveTo(action.coordinate), "click", "2"]
    case "right_click":
      return [...moveTo(action.coordinate), "click", "3"]
    case "double_click":
      return [...moveTo(action.coordinate), "click", "--repeat", "2", "--delay", "80", "1"]
    case "left_click_drag":
      return [...moveTo(action.start), "mousedown", "1", ...moveTo(action.coordinate), "mouseup", "1"]
    case "type":
      return ["type", "--delay", "8", "--", action.text]
    case "key":
      return ["key", "--delay", "20", "--", ...action.text.trim().split(/\s+/)]
    case "scroll":
      return [
        ...moveTo(action.coordinate),
        "click",
        "--repeat",
        String(action.amount),
        "--delay",
        "20",
        scrollButton[action.direction]
      ]
    case "cursor_position":
      return ["getmouselocation", "--shell"]
    case "screenshot":
    case "wait":
      return undefined
  }
}

/** Reads `X=…` and `Y=…` from `xdotool getmouselocation --shell`. */
export const parseCursor = (text: string): Point | undefined => {
  const x = /^X=(\d+)$/m.exec(text)?.[1]
  const y = /^Y=(\d+)$/m.exec(text)?.[1]
  return x === undefined || y === undefined ? undefined : [Number(x), Number(y)]
}
