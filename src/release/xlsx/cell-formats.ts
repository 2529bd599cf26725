/**
 * @module release/xlsx: which cell styles show a number as a date, a time or both (from `xl/styles.xml`:
 * each cell format's number format, built in or custom), and a serial number turned into ISO text.
 */
import { attribute, parseXmlPart } from './xml-part-parser.js'

export type DateKind = 'date' | 'time' | 'datetime'

// Built-in number formats (ECMA-376 §18.8.30, with the CJK locales' 27–36 and 50–58).
const builtInDates = new Set([14, 15, 16, 17, 27, 28, 29, 30, 31, 36, 50, 51, 52, 53, 54, 57, 58])
const builtInTimes = new Set([18, 19, 20, 21, 32, 33, 34, 35, 45, 46, 47, 55, 56])

/** The kind of date a format code shows, or undefined for a number format. */
function formatKind(code: string): DateKind | undefined {
  // Quoted text, escaped characters and [colour]/[locale] sections carry no date parts; [h] [mm] [ss] do.
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(h+|m+|s+)\]/gi, '$1')
    .replace(/\[[^\]]*\]/g, '')
    .split(';')[0]
    ?.toLowerCase()
  if (!bare || bare === 'general') return undefined
  const date = /[yde]/.test(bare) || (/m/.test(bare) && !/[0#?]/.test(bare))
  const time = /[hs]/.test(bare)
  if (date && time && /[yde]/.test(bare)) return 'datetime'
  if (time) return 'time'
  return date ? 'date' : undefined
}

/** For each cell format index (`s="…"`), its date kind (undefined = shown as a number). */
export function parseCellFormats(stylesXml: string, file = 'workbook', part = 'xl/styles.xml'): (DateKind | undefined)[] {
  const custom = new Map<number, DateKind | undefined>()
  const ids: number[] = []
  let inCellXfs = false
  parseXmlPart(file, part, stylesXml, {
    open(name, attributes) {
      if (name === 'numFmt') {
        const id = Number(attribute(attributes, 'numFmtId'))
        const code = attribute(attributes, 'formatCode')
        if (Number.isInteger(id) && code !== undefined) custom.set(id, formatKind(code))
      } else if (name === 'cellXfs') inCellXfs = true
      else if (name === 'xf' && inCellXfs) ids.push(Number(attribute(attributes, 'numFmtId') ?? '0'))
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false
    },
  })
  return ids.map((id) =>
    custom.has(id) ? custom.get(id) : builtInDates.has(id) ? 'date' : builtInTimes.has(id) ? 'time' : undefined,
  )
}

const two = (value: number) => String(value).padStart(2, '0')

/**
 * An Excel serial as ISO text: `2024-03-01`, `13:45:00` or `2024-03-01T13:45:00` (to the second).
 * The 1900 system counts the fictitious 1900-02-29 (serial 60), as Excel does.
 */
export function serialText(serial: number, kind: DateKind, date1904: boolean): string {
  const seconds = Math.round(serial * 86_400)
  const days = Math.floor(seconds / 86_400)
  const rest = seconds - days * 86_400
  const time = `${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`
  if (kind === 'time' && days === 0) return time
  const base = date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30)
  const day = new Date(base + days * 86_400_000)
  const text = `${day.getUTCFullYear()}-${two(day.getUTCMonth() + 1)}-${two(day.getUTCDate())}`
  if (kind === 'date' && rest === 0) return text
  return `${text}T${time}`
}
