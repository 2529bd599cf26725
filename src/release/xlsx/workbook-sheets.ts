/**
 * @module release/xlsx: a workbook's worksheets in tab order, with their names and part paths, read from
 * `xl/workbook.xml` and its relationships. The streaming reader names a sheet only when the relationship
 * target is relative; openpyxl and pandas write absolute targets (`/xl/worksheets/sheet1.xml`), which left
 * their sheets named `Sheet1`, `Sheet2`. Reads only the zip's central directory and those two small parts.
 */
import { closeSync, openSync } from 'node:fs'
import { unescapeXml, xmlAttribute } from './xml-text.js'
import { entryText, type ZipEntry, zipEntries } from './zip-entries.js'

export interface WorkbookSheet {
  name: string
  /** The worksheet part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string
}

const attribute = xmlAttribute

/** A relationship target (relative to `xl/`, or absolute from the package root) as a part path. */
function partOf(target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const parts = ['xl']
  for (const part of target.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

export interface WorkbookPackage {
  /** Worksheets in tab order. */
  sheets: WorkbookSheet[]
  /** The shared-string and style parts, when the workbook has them. */
  sharedStrings?: string
  styles?: string
  /** Serial dates count from 1904-01-01 (old Mac workbooks). */
  date1904: boolean
}

/** Reads the workbook part and its relationships through an open zip. */
export function readWorkbookPackage(fd: number, entries: Map<string, ZipEntry>): WorkbookPackage | undefined {
  const workbook = entries.get('xl/workbook.xml')
  const rels = entries.get('xl/_rels/workbook.xml.rels')
  if (!workbook || !rels) return undefined
  const targets = new Map<string, string>()
  const result: WorkbookPackage = { sheets: [], date1904: false }
  for (const match of entryText(fd, rels).matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const id = attribute(match[0], 'Id')
    const target = attribute(match[0], 'Target')
    const type = attribute(match[0], 'Type') ?? ''
    if (!id || !target) continue
    const part = partOf(unescapeXml(target))
    targets.set(id, part)
    if (type.endsWith('/sharedStrings')) result.sharedStrings = part
    if (type.endsWith('/styles')) result.styles = part
  }
  const text = entryText(fd, workbook)
  const properties = /<(?:\w+:)?workbookPr\b[^>]*>/.exec(text)?.[0]
  const date1904 = properties ? attribute(properties, 'date1904') : undefined
  result.date1904 = date1904 === '1' || date1904 === 'true'
  for (const match of text.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
    const name = attribute(match[0], 'name')
    const id = attribute(match[0], 'r:id') ?? /\s\w+:id="([^"]*)"/.exec(match[0])?.[1]
    const part = id === undefined ? undefined : targets.get(id)
    if (name !== undefined && part) result.sheets.push({ name: unescapeXml(name), part })
  }
  return result
}

/** The worksheets of the workbook at `path`, in tab order; `undefined` when its parts cannot be read. */
export function workbookSheets(path: string): WorkbookSheet[] | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    return readWorkbookPackage(fd, zipEntries(fd))?.sheets
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
