/**
 * @module release/xlsx: Excel's `_xHHHH_` escapes in string content (ECMA-376 ST_Xstring), decoded as
 * Excel decodes them: `_x000D_` is a carriage return, `_x005F_` a literal underscore (so
 * `_x005F_x000D_` reads `_x000D_`). One left-to-right pass; the hex digits in either case.
 */

const excelEscape = /_x([0-9A-Fa-f]{4})_/g

export function decodeExcelEscapes(text: string): string {
  if (!text.includes('_x')) return text
  return text.replace(excelEscape, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}
