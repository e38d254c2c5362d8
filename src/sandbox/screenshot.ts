import { crc32, deflateSync } from "node:zlib"

/**
 * Screenshots: `xwd -root` inside the jail dumps the display as an XWD
 * image; the gateway turns it into a PNG. Both formats are small enough to
 * handle here, which spares every host an image-processing package.
 */

export interface RgbImage {
  readonly width: number
  readonly height: number
  /** 3 bytes per pixel, rows top to bottom. */
  readonly rgb: Buffer
}

const XWD_HEADER_FIELDS = 25
const Z_PIXMAP = 2
const TRUE_COLOR = 4
const DIRECT_COLOR = 5

const maskShift = (mask: number) => {
  let shift = 0
  while (shift < 32 && ((mask >>> shift) & 1) === 0) shift++
  let width = 0
  while (shift + width < 32 && ((mask >>> (shift + width)) & 1) === 1) width++
  return { shift, max: 2 ** width - 1 }
}

/** Decodes a true-colour ZPixmap XWD dump (what Xvfb's root window gives) into RGB. */
export const decodeXwd = (data: Buffer): RgbImage => {
  if (data.length < XWD_HEADER_FIELDS * 4) throw new Error("XWD dump too short")
  const field = (index: number) => data.readUInt32BE(index * 4)
  const headerSize = field(0)
  const [format, width, height, byteOrder, bitsPerPixel, bytesPerLine, visualClass] = [
    field(2),
    field(4),
    field(5),
    field(7),
    field(11),
    field(12),
    field(13)
  ]
  const masks = [field(14), field(15), field(16)].map(maskShift)
  const colors = field(19)
  if (format !== Z_PIXMAP || (visualClass !== TRUE_COLOR && visualClass !== DIRECT_COLOR)) {
    throw new Error(`unsupported XWD image (format ${format}, visual class ${visualClass})`)
  }
  if (bitsPerPixel !== 32 && bitsPerPixel !== 24) {
    throw new Error(`unsupported XWD depth: ${bitsPerPixel} bits per pixel`)
  }
  const offset = headerSize + colors * 12
  const bytesPerPixel = bitsPerPixel / 8
  if (
    width === 0 || height === 0 || bytesPerLine < width * bytesPerPixel || offset + bytesPerLine * height > data.length
  ) {
    throw new Error("XWD dump is truncated")
  }
  const rgb = Buffer.alloc(width * height * 3)
  const littleEndian = byteOrder === 0
  for (let y = 0; y < height; y++) {
    const row = offset + y * bytesPerLine
    for (let x = 0; x < width; x++) {
      const at = row + x * bytesPerPixel
      const pixel = bytesPerPixel === 4
        ? (littleEndian ? data.readUInt32LE(at) : data.readUInt32BE(at))
        : (littleEndian ? data.readUIntLE(at, 3) : data.readUIntBE(at, 3))
      const out = (y * width + x) * 3
      for (let channel = 0; channel < 3; channel++) {
        const { max, shift } = masks[channel]!
        const value = (pixel >>> shift) & max
        rgb[out + channel] = max === 255 ? value : Math.round((value * 255) / (max || 1))
      }
    }
  }
  return { width, height, rgb }
}

const chunk = (type: string, body: Buffer): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(body.length, 0)
  head.write(type, 4, "ascii")
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0)
  return Buffer.concat([head, body, crc])
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** An 8-bit RGB PNG; each row uses the Sub filter, which suits flat screen content. */
export const encodePng = (image: RgbImage): Buffer => {
  const { height, rgb, width } = image
  const stride = width * 3
  const filtered = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) {
    const source = y * stride
    const target = y * (stride + 1)
    filtered[target] = 1
    for (let i = 0; i < stride; i++) {
      const left = i >= 3 ? rgb[source + i - 3]! : 0
      filtered[target + 1 + i] = (rgb[source + i]! - left) & 0xff
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(filtered, { level: 6 })),
    chunk("IEND", Buffer.alloc(0))
  ])
}
