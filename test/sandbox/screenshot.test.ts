import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { decodeXwd, encodePng } from "../../src/sandbox/screenshot.ts"
import { decodePng } from "./png.ts"

// An XWD dump as `xwd -root` writes it for a 24-bit TrueColor screen: 32 bits per pixel, LSBFirst.
const xwdOf = (width: number, height: number, pixel: (x: number, y: number) => number, padding = 0) => {
  const name = Buffer.from("xwdump\0")
  const header = Buffer.alloc(100)
  const bytesPerLine = width * 4 + padding
  const fields = [
    100 + name.length,
    7,
    2,
    24,
    width,
    height,
    0,
    0,
    32,
    0,
    32,
    32,
    bytesPerLine,
    4,
    0xff0000,
    0xff00,
    0xff,
    8,
    256,
    1,
    width,
    height,
    0,
    0,
    0
  ]
  fields.forEach((value, index) => header.writeUInt32BE(value, index * 4))
  const colors = Buffer.alloc(12)
  const image = Buffer.alloc(bytesPerLine * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) image.writeUInt32LE(pixel(x, y), y * bytesPerLine + x * 4)
  }
  return Buffer.concat([header, name, colors, image])
}

describe("screenshots", () => {
  it("decode an XWD dump and encode a PNG that decodes to the same pixels", () => {
    const pixel = (x: number, y: number) => ((x * 7) & 0xff) << 16 | ((y * 13) & 0xff) << 8 | ((x + y) & 0xff)
    const image = decodeXwd(xwdOf(37, 11, pixel, 8))
    assert.strictEqual(image.width, 37)
    assert.strictEqual(image.height, 11)
    const png = decodePng(encodePng(image))
    assert.deepStrictEqual([png.width, png.height, png.channels], [37, 11, 3])
    for (const [x, y] of [[0, 0], [36, 10], [5, 7]] as const) {
      const value = pixel(x, y)
      assert.deepStrictEqual(png.pixel(x, y), [value >> 16 & 0xff, value >> 8 & 0xff, value & 0xff])
    }
  })

  it.effect.prop("any RGB image survives the PNG round trip", [
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 40 })),
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 20 }))
  ], ([width, height]) =>
    Effect.sync(() => {
      const rgb = Buffer.alloc(width * height * 3)
      for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 31 + width * height) & 0xff
      assert.deepStrictEqual(decodePng(encodePng({ width, height, rgb })).pixels, rgb)
    }))

  it("refuses a truncated or unsupported dump", () => {
    const dump = xwdOf(4, 4, () => 0)
    assert.throws(() => decodeXwd(dump.subarray(0, dump.length - 10)), /truncated/)
    assert.throws(() => decodeXwd(dump.subarray(0, 20)), /too short/)
    const paletted = Buffer.from(dump)
    paletted.writeUInt32BE(3, 13 * 4) // PseudoColor
    assert.throws(() => decodeXwd(paletted), /unsupported/)
  })
})
