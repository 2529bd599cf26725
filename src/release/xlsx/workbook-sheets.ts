/**
 * @module release/xlsx: a workbook's worksheets in tab order, with their names and part paths, read from
 * `xl/workbook.xml` and its relationships. The streaming reader names a sheet only when the relationship
 * target is relative; openpyxl and pandas write absolute targets (`/xl/worksheets/sheet1.xml`), which left
 * their sheets named `Sheet1`, `Sheet2`. Reads only the zip's central directory and those two small parts.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'

export interface WorkbookSheet {
  name: string
  /** The worksheet part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string
}

interface ZipEntry {
  method: number
  compressedSize: number
  localOffset: number
}

function read(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length)
  const got = readSync(fd, buffer, 0, length, position)
  return buffer.subarray(0, got)
}

/** The central directory's entries by name (empty when the file is no zip). */
function zipEntries(fd: number): Map<string, ZipEntry> {
  const entries = new Map<string, ZipEntry>()
  const size = fstatSync(fd).size
  const tailLength = Math.min(size, 65_557)
  const tail = read(fd, size - tailLength, tailLength)
  const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || end + 22 > tail.length) return entries
  const directorySize = tail.readUInt32LE(end + 12)
  const directoryOffset = tail.readUInt32LE(end + 16)
  const directory = read(fd, directoryOffset, directorySize)
  for (let at = 0; at + 46 <= directory.length && directory.readUInt32LE(at) === 0x02014b50; ) {
    const nameLength = directory.readUInt16LE(at + 28)
    const extraLength = directory.readUInt16LE(at + 30)
    const commentLength = directory.readUInt16LE(at + 32)
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength)
    entries.set(name, {
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      localOffset: directory.readUInt32LE(at + 42),
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

function entryText(fd: number, entry: ZipEntry): string {
  const header = read(fd, entry.localOffset, 30)
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
  const data = read(fd, start, entry.compressedSize)
  return (entry.method === 8 ? inflateRawSync(data) : data).toString('utf8')
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&amp;/g, '&')

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

/** The worksheets of the workbook at `path`, in tab order; `undefined` when its parts cannot be read. */
export function workbookSheets(path: string): WorkbookSheet[] | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const entries = zipEntries(fd)
    const workbook = entries.get('xl/workbook.xml')
    const rels = entries.get('xl/_rels/workbook.xml.rels')
    if (!workbook || !rels) return undefined
    const targets = new Map<string, string>()
    for (const match of entryText(fd, rels).matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      const id = attribute(match[0], 'Id')
      const target = attribute(match[0], 'Target')
      if (id && target) targets.set(id, partOf(unescapeXml(target)))
    }
    const sheets: WorkbookSheet[] = []
    for (const match of entryText(fd, workbook).matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)) {
      const name = attribute(match[0], 'name')
      const id = attribute(match[0], 'r:id') ?? /\s\w+:id="([^"]*)"/.exec(match[0])?.[1]
      const part = id === undefined ? undefined : targets.get(id)
      if (name !== undefined && part) sheets.push({ name: unescapeXml(name), part })
    }
    return sheets
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
