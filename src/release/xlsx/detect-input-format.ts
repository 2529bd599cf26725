/**
 * @module release/xlsx: what an input file is, by its bytes, not its name: a zip holding a workbook
 * part is a workbook (`.xlsx` and `.xlsm` alike: macros are never run, only cells read); an OLE
 * compound file holding `EncryptionInfo` is a password-protected workbook; any other compound file is
 * a legacy `.xls`; a zip with an OpenDocument `mimetype` is `.ods`. The last three are refused, saying
 * what to do. A file that is neither is read as delimited text when its name says `.csv`, `.tsv` or
 * `.txt`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { basename, extname } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { requireInputFile } from '../../io/require-input-file.js'
import { entryText, zipEntries } from './zip-entries.js'

export type InputFormat = 'xlsx' | 'csv'

const zipMagic = Buffer.from([0x50, 0x4b, 0x03, 0x04])
const emptyZipMagic = Buffer.from([0x50, 0x4b, 0x05, 0x06])
const oleMagic = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
const encryptionInfo = Buffer.from('EncryptionInfo', 'utf16le')
const textExtensions = new Set(['.csv', '.tsv', '.txt'])

function refuse(path: string, code: 'password_protected' | 'unsupported_input' | 'xlsx_unreadable', message: string) {
  const file = basename(path)
  return new InvalidInputError({
    code,
    path: file,
    message: `${file}: ${message}`,
    issues: [{ code, path: file, message }],
  })
}

/** True when the bytes of `fd` hold `needle` (read in 1 MiB windows that overlap by its length). */
function holds(fd: number, needle: Buffer): boolean {
  const size = fstatSync(fd).size
  const window = Buffer.alloc(1 << 20)
  for (let at = 0; at < size; at += window.length - needle.length) {
    const got = readSync(fd, window, 0, window.length, at)
    if (window.subarray(0, got).includes(needle)) return true
    if (got < window.length) break
  }
  return false
}

function zipFormat(path: string, fd: number): InputFormat {
  let entries: ReturnType<typeof zipEntries>
  try {
    entries = zipEntries(fd)
  } catch {
    throw refuse(path, 'xlsx_unreadable', 'a zip file whose directory cannot be read (cut off, or corrupt)')
  }
  const mimetype = entries.get('mimetype')
  if (mimetype) {
    let type = ''
    try {
      type = entryText(fd, mimetype, 4096)
    } catch {}
    if (type.includes('opendocument'))
      throw refuse(
        path,
        'unsupported_input',
        'an OpenDocument spreadsheet (.ods) is not read: save it as .xlsx (File → Save As → Excel 2007-365).',
      )
  }
  if (entries.has('xl/workbook.xml') || entries.has('_rels/.rels')) return 'xlsx'
  if (entries.size === 0)
    throw refuse(path, 'xlsx_unreadable', 'not an .xlsx workbook, or corrupt: no zip directory found (is the file cut off?)')
  throw refuse(path, 'xlsx_unreadable', 'a zip file, but not an .xlsx workbook (no xl/workbook.xml)')
}

/** The format of the input at `path`, or a coded refusal that says what to do. */
export function detectInputFormat(path: string): InputFormat {
  requireInputFile(path)
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(8)
    const got = readSync(fd, head, 0, 8, 0)
    const start = head.subarray(0, got)
    if (start.subarray(0, 4).equals(zipMagic) || start.subarray(0, 4).equals(emptyZipMagic)) return zipFormat(path, fd)
    if (start.equals(oleMagic)) {
      if (holds(fd, encryptionInfo))
        throw refuse(
          path,
          'password_protected',
          'the workbook is password-protected (encrypted): save it without a password (File → Info → Protect Workbook → Encrypt with Password, clear it) and run again.',
        )
      throw refuse(
        path,
        'unsupported_input',
        'a legacy Excel 97-2003 workbook (.xls) is not read: save it as .xlsx (File → Save As → Excel Workbook).',
      )
    }
    const extension = extname(path).toLowerCase()
    if (textExtensions.has(extension)) return 'csv'
    if (extension === '.xlsx' || extension === '.xlsm')
      throw refuse(path, 'xlsx_unreadable', 'not an .xlsx workbook, or corrupt: it is not a zip file')
    if (extension === '.xls' || extension === '.ods')
      throw refuse(
        path,
        'unsupported_input',
        `a ${extension} file that is not a spreadsheet this reader knows: save it as .xlsx.`,
      )
    throw refuse(
      path,
      'unsupported_input',
      'expected an .xlsx/.xlsm workbook or a .csv/.tsv/.txt file (save the sheet as .xlsx or CSV).',
    )
  } finally {
    closeSync(fd)
  }
}
