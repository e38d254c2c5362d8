import { crc32, inflateSync } from "node:zlib"

/**
 * A PNG reader for tests, independent of the encoder under test: checks the
 * signature and every chunk's CRC, inflates IDAT and undoes all five row
 * filters. 8-bit RGB and RGBA only.
 */
export interface DecodedPng {
  readonly width: number
  readonly height: number
  readonly channels: number
  readonly pixels: Buffer
  pixel(x: number, y: number): readonly [number, number, number]
}

const SIGNATURE = "89504e470d0a1a0a"

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

export const decodePng = (png: Uint8Array): DecodedPng => {
  const data = Buffer.from(png)
  if (data.subarray(0, 8).toString("hex") !== SIGNATURE) throw new Error("not a PNG signature")
  let offset = 8
  let header: Buffer | undefined
  const idat: Array<Buffer> = []
  let ended = false
  while (offset < data.length) {
    const length = data.readUInt32BE(offset)
    const type = data.subarray(offset + 4, offset + 8).toString("ascii")
    const body = data.subarray(offset + 8, offset + 8 + length)
    const crc = data.readUInt32BE(offset + 8 + length)
    if (crc32(data.subarray(offset + 4, offset + 8 + length)) !== crc) throw new Error(`bad CRC in ${type}`)
    if (type === "IHDR") header = body
    if (type === "IDAT") idat.push(body)
    if (type === "IEND") ended = true
    offset += 12 + length
  }
  if (header === undefined || !ended) throw new Error("missing IHDR or IEND")
  const width = header.readUInt32BE(0)
  const height = header.readUInt32BE(4)
  if (header[8] !== 8 || (header[9] !== 2 && header[9] !== 6) || header[12] !== 0) {
    throw new Error("unsupported PNG kind")
  }
  const channels = header[9] === 2 ? 3 : 4
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * channels
  if (raw.length !== (stride + 1) * height) {
    throw new Error(`image data is ${raw.length} bytes, expected ${(stride + 1) * height}`)
  }
  const pixels = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    for (let i = 0; i < stride; i++) {
      const value = raw[y * (stride + 1) + 1 + i]!
      const left = i >= channels ? pixels[y * stride + i - channels]! : 0
      const up = y > 0 ? pixels[(y - 1) * stride + i]! : 0
      const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels]! : 0
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      if (predictor === undefined) throw new Error(`unknown filter ${filter}`)
      pixels[y * stride + i] = (value + predictor) & 0xff
    }
  }
  return {
    width,
    height,
    channels,
    pixels,
    pixel: (x, y) => {
      const at = (y * width + x) * channels
      return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!]
    }
  }
}
