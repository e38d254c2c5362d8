import { assert, describe, it } from "@effect/vitest"
import { checkAction, parseCursor, xdotoolArgs } from "../../src/sandbox/desktopActions.ts"

const display = { width: 1024, height: 768 }

describe("desktop actions", () => {
  it("accept coordinates on the display and refuse any off it", () => {
    assert.isUndefined(checkAction({ action: "mouse_move", coordinate: [0, 0] }, display))
    assert.isUndefined(checkAction({ action: "left_click_drag", start: [1023, 767], coordinate: [5, 5] }, display))
    for (const coordinate of [[1024, 0], [0, 768], [-1, 3], [2.5, 3]] as const) {
      const problem = checkAction({ action: "left_click", coordinate }, display)
      assert.include(problem?.message, "off the 1024x768 display")
    }
    assert.include(
      checkAction({ action: "left_click_drag", start: [5, 900], coordinate: [1, 1] }, display)?.message,
      "(5, 900)"
    )
  })

  it("bound typing, key names, scrolling and waits", () => {
    assert.isDefined(checkAction({ action: "type", text: "" }, display))
    assert.isDefined(checkAction({ action: "type", text: "x".repeat(5_000) }, display))
    assert.isUndefined(checkAction({ action: "key", text: "ctrl+shift+t Return" }, display))
    assert.isDefined(checkAction({ action: "key", text: "Return; rm -rf /" }, display))
    assert.isDefined(checkAction({ action: "scroll", direction: "down", amount: 0 }, display))
    assert.isDefined(checkAction({ action: "wait", seconds: 0 }, display))
    assert.isDefined(checkAction({ action: "wait", seconds: 31 }, display))
  })

  it("map to xdotool commands", () => {
    assert.deepStrictEqual(xdotoolArgs({ action: "left_click", coordinate: [10, 20] }), [
      "mousemove",
      "--sync",
      "10",
      "20",
      "click",
      "1"
    ])
    assert.deepStrictEqual(xdotoolArgs({ action: "right_click" }), ["click", "3"])
    assert.deepStrictEqual(xdotoolArgs({ action: "double_click" }), ["click", "--repeat", "2", "--delay", "80", "1"])
    assert.deepStrictEqual(
      xdotoolArgs({ action: "left_click_drag", start: [1, 2], coordinate: [3, 4] }),
      ["mousemove", "--sync", "1", "2", "mousedown", "1", "mousemove", "--sync", "3", "4", "mouseup", "1"]
    )
    assert.deepStrictEqual(xdotoolArgs({ action: "type", text: "-n hi" }), ["type", "--delay", "8", "--", "-n hi"])
    assert.deepStrictEqual(xdotoolArgs({ action: "key", text: " ctrl+a  Delete " }), [
      "key",
      "--delay",
      "20",
      "--",
      "ctrl+a",
      "Delete"
    ])
    assert.deepStrictEqual(xdotoolArgs({ action: "scroll", direction: "left", amount: 2 }), [
      "click",
      "--repeat",
      "2",
      "--delay",
      "20",
      "6"
    ])
    assert.isUndefined(xdotoolArgs({ action: "screenshot" }))
  })

  it("read the pointer from xdotool", () => {
    assert.deepStrictEqual(parseCursor("X=12\nY=345\nSCREEN=0\nWINDOW=99\n"), [12, 345])
    assert.isUndefined(parseCursor("nothing"))
  })
})
