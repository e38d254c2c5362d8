const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Width and height of a PNG, read from its IHDR chunk (always the first, right after the signature). */
export const pngSize = (png: Uint8Array): { readonly width: number; readonly height: number } => {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const isPng = png.byteLength >= 24 && signature.every((byte, index) => png[index] === byte) &&
    String.fromCharCode(...png.subarray(12, 16)) === "IHDR"
  if (!isPng) throw new Error("not a PNG image")
  return { width: view.getUint32(16), height: view.getUint32(20) }
}
