/**
 * @module release/preprocess: a windows-1252 decoder. Node 20's `TextDecoder('windows-1252')` decodes
 * as ISO-8859-1 (nodejs/node#56542: `€` 0x80 becomes U+0080), so this label is decoded here, by the
 * WHATWG table: 0x80–0x9F are the typographic characters, the five unassigned bytes their C1 controls.
 */

const high = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
]

export function decodeWindows1252(bytes: Uint8Array): string {
  const codes = new Array<number>(bytes.length)
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] as number
    codes[at] = byte >= 0x80 && byte < 0xa0 ? (high[byte - 0x80] as number) : byte
  }
  let text = ''
  for (let at = 0; at < codes.length; at += 8192) text += String.fromCharCode(...codes.slice(at, at + 8192))
  return text
}
