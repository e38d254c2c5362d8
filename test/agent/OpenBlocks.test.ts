import { describe, expect, it } from "@effect/vitest"
import { OpenBlocks } from "../../src/agent/OpenBlocks.ts"

describe("OpenBlocks", () => {
  it("gives a block a fresh UI id when its type already used the provider's id in the run", () => {
    const blocks = new OpenBlocks()
    const first = blocks.open("text", "0", undefined)
    blocks.close("text", "0")
    const second = blocks.open("text", "0", undefined)
    const reasoning = blocks.open("reasoning", "0", undefined)
    expect(first.uiId).toBe("0")
    expect(second.uiId).not.toBe("0")
    expect(reasoning.uiId).toBe("0")
    expect(blocks.get("text", "0")).toBe(second)
  })

  it("closes a block once, and closing all returns the text blocks first and leaves none open", () => {
    const blocks = new OpenBlocks()
    const reasoning = blocks.open("reasoning", "r", undefined)
    const text = blocks.open("text", "t", undefined)
    expect(blocks.close("text", "missing")).toBeUndefined()
    expect(blocks.closeAll()).toEqual([text, reasoning])
    expect(blocks.close("reasoning", "r")).toBeUndefined()
    expect(blocks.closeAll()).toEqual([])
  })
})
