/**
 * @module train: the end of a log file without reading all of it: chunks are read backwards from the
 * end until enough lines are found (or a byte cap is reached), so `/train/logs?lines=` stays cheap on a
 * multi-gigabyte log.
 */
import { open } from 'node:fs/promises'

export interface LogTail {
  lines: string[]
  /** The file's size when read (the offset a live reader continues from). */
  size: number
  /** True when the cap stopped the search before the start of the file. */
  truncated: boolean
}

export async function readLogTail(path: string, options: { lines: number; maxBytes?: number }): Promise<LogTail> {
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return { lines: [], size: 0, truncated: false }
  try {
    const size = (await handle.stat()).size
    const chunks: Buffer[] = []
    let position = size
    let newlines = 0
    while (position > 0 && newlines <= options.lines && size - position < maxBytes) {
      const length = Math.min(64 * 1024, position)
      position -= length
      const chunk = Buffer.alloc(length)
      await handle.read(chunk, 0, length, position)
      chunks.unshift(chunk)
      for (const byte of chunk) if (byte === 10) newlines++
    }
    const text = Buffer.concat(chunks).toString('utf8')
    const all = text.split('\n')
    if (all.at(-1) === '') all.pop()
    // The first line may be partial when we stopped mid-file.
    if (position > 0) all.shift()
    return { lines: all.slice(-options.lines), size, truncated: position > 0 && all.length < options.lines }
  } finally {
    await handle.close()
  }
}

/** Bytes appended since `offset` (capped), split into complete lines; returns the new offset. */
export async function readLogSince(
  path: string,
  offset: number,
  maxBytes = 256 * 1024,
): Promise<{ lines: string[]; offset: number }> {
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return { lines: [], offset }
  try {
    const size = (await handle.stat()).size
    if (size < offset) offset = 0 // truncated or replaced: start over
    const length = Math.min(size - offset, maxBytes)
    if (length <= 0) return { lines: [], offset }
    const chunk = Buffer.alloc(length)
    await handle.read(chunk, 0, length, offset)
    const end = chunk.lastIndexOf(10)
    if (end < 0) return length === maxBytes ? { lines: [chunk.toString('utf8')], offset: offset + length } : { lines: [], offset }
    return { lines: chunk.subarray(0, end).toString('utf8').split('\n'), offset: offset + end + 1 }
  } finally {
    await handle.close()
  }
}
