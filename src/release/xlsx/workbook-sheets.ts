/**
 * @module release/xlsx: a workbook's worksheets in tab order, with their names, part paths and
 * visibility, read through the XML parser from the package relationships (`_rels/.rels` → the workbook
 * part, usually `xl/workbook.xml`), the workbook part and its relationships. Targets may be relative or
 * absolute (openpyxl and pandas write `/xl/worksheets/sheet1.xml`). Reads only the zip's central
 * directory and these small parts.
 */
import { closeSync, openSync } from 'node:fs'
import { basename } from 'node:path'
import { attribute, parseXmlPart, prefixedAttribute } from './xml-part-parser.js'
import { entryText, type ZipDirectoryEntry, zipEntries } from './zip-entries.js'

export interface WorkbookSheet {
  name: string
  /** The worksheet part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string
  /** Set when the tab is hidden in Excel (`hidden`, or `veryHidden`: only a macro shows it). */
  state?: 'hidden' | 'veryHidden'
}

/** A relationship target as a part path: absolute from the package root, or relative to `base`'s folder. */
function partOf(target: string, base: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const parts = base.split('/').slice(0, -1)
  for (const part of target.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

function relsPart(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

interface Relationship {
  id: string
  type: string
  part: string
}

function relationships(file: string, text: string, part: string, base: string): Relationship[] {
  const found: Relationship[] = []
  parseXmlPart(file, part, text, {
    open(name, attributes) {
      if (name !== 'Relationship') return
      const id = attribute(attributes, 'Id')
      const target = attribute(attributes, 'Target')
      if (id && target && attribute(attributes, 'TargetMode') !== 'External')
        found.push({ id, type: attribute(attributes, 'Type') ?? '', part: partOf(target, base) })
    },
    close() {},
  })
  return found
}

export interface WorkbookPackage {
  /** The workbook part (`xl/workbook.xml`). */
  workbook: string
  /** Worksheets in tab order (hidden ones too, marked). */
  sheets: WorkbookSheet[]
  /** The shared-string and style parts, when the workbook has them. */
  sharedStrings?: string
  styles?: string
  /** Serial dates count from 1904-01-01 (old Mac workbooks). */
  date1904: boolean
}

/** The workbook part named by the package relationships (`xl/workbook.xml` when there are none). */
function workbookPart(fd: number, entries: Map<string, ZipDirectoryEntry>, file: string): string | undefined {
  const root = entries.get('_rels/.rels')
  if (root) {
    const office = relationships(file, entryText(fd, root), '_rels/.rels', '').find((item) =>
      item.type.endsWith('/officeDocument'),
    )
    if (office && entries.has(office.part)) return office.part
  }
  return entries.has('xl/workbook.xml') ? 'xl/workbook.xml' : undefined
}

/** Reads the workbook part and its relationships through an open zip (`undefined`: no workbook part). */
export function readWorkbookPackage(
  fd: number,
  entries: Map<string, ZipDirectoryEntry>,
  path = 'workbook',
): WorkbookPackage | undefined {
  const file = basename(path)
  const workbook = workbookPart(fd, entries, file)
  if (!workbook) return undefined
  const rels = entries.get(relsPart(workbook))
  if (!rels) return undefined
  const targets = new Map<string, string>()
  const result: WorkbookPackage = { workbook, sheets: [], date1904: false }
  for (const { id, type, part } of relationships(file, entryText(fd, rels), relsPart(workbook), workbook)) {
    targets.set(id, part)
    if (type.endsWith('/sharedStrings')) result.sharedStrings = part
    if (type.endsWith('/styles')) result.styles = part
  }
  parseXmlPart(file, workbook, entryText(fd, entries.get(workbook) as ZipDirectoryEntry), {
    open(name, attributes) {
      if (name === 'workbookPr') {
        const date1904 = attribute(attributes, 'date1904')
        result.date1904 = date1904 === '1' || date1904 === 'true'
      } else if (name === 'sheet') {
        const sheetName = attribute(attributes, 'name')
        const id = prefixedAttribute(attributes, 'id')
        const part = id === undefined ? undefined : targets.get(id)
        const state = attribute(attributes, 'state')
        if (sheetName !== undefined && part)
          result.sheets.push({
            name: sheetName,
            part,
            ...(state === 'hidden' || state === 'veryHidden' ? { state } : {}),
          })
      }
    },
    close() {},
  })
  return result
}

/** The worksheets of the workbook at `path`, in tab order; `undefined` when its parts cannot be read. */
export function workbookSheets(path: string): WorkbookSheet[] | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    return readWorkbookPackage(fd, zipEntries(fd), path)?.sheets
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
