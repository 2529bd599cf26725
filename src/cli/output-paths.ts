/**
 * @module cli: output paths checked before any work starts (issue 18 item 7): a file path that is a
 * directory, a parent that is a file, a place nothing can be written (`/proc`, a read-only mount) are
 * typed errors (exit 2) naming the flag, not a stack trace after the whole run. Writability is probed
 * with a real file in the nearest existing directory, so the answer is the filesystem's own.
 */

import { randomUUID } from 'node:crypto'
import { stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { ErrorCode } from '../core/errors/error-code.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'

function outputError(options: { code: ErrorCode; flag: string; path: string; message: string }): InvalidInputError {
  return new InvalidInputError({
    code: options.code,
    message: `${options.flag} ${options.path}: ${options.message}`,
    path: options.flag,
    issues: [{ code: options.code, path: options.flag, message: options.message }],
  })
}

async function kindOf(path: string): Promise<'file' | 'directory' | 'other' | 'missing' | 'blocked'> {
  try {
    const info = await stat(path)
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other'
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return 'missing'
    if (code === 'ENOTDIR') return 'blocked'
    throw error
  }
}

/** The nearest existing ancestor directory of `path` (itself included); throws when a file is in the way. */
async function existingDirectory(path: string, context: { flag: string; path: string }): Promise<string> {
  let current = resolve(path)
  for (;;) {
    const kind = await kindOf(current)
    if (kind === 'directory') return current
    if (kind === 'file' || kind === 'other') {
      throw outputError({ code: 'output_parent_not_directory', ...context, message: `${current} is not a directory.` })
    }
    const parent = dirname(current)
    if (parent === current) return current
    current = parent
  }
}

async function probeWritable(directory: string, context: { flag: string; path: string }): Promise<void> {
  const probe = resolve(directory, `.releaseops-write-probe-${randomUUID()}`)
  try {
    await writeFile(probe, '', { flag: 'wx' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown'
    throw outputError({ code: 'output_not_writable', ...context, message: `nothing can be written in ${directory} (${code}).` })
  }
  await unlink(probe)
}

/** A file the command will write (and may create the parents of). */
export async function checkOutputFile(path: string, flag: string): Promise<void> {
  const context = { flag, path }
  const kind = await kindOf(resolve(path))
  if (kind === 'directory')
    throw outputError({ code: 'output_is_directory', ...context, message: 'is a directory; give a file path.' })
  if (kind === 'other') throw outputError({ code: 'output_not_a_file', ...context, message: 'exists and is not a regular file.' })
  await probeWritable(await existingDirectory(dirname(path), context), context)
}

/** A directory the command will create (if missing) and write files in. */
export async function checkOutputDirectory(path: string, flag: string): Promise<void> {
  const context = { flag, path }
  const kind = await kindOf(resolve(path))
  if (kind === 'file' || kind === 'other') {
    throw outputError({ code: 'output_not_a_directory', ...context, message: 'exists and is not a directory.' })
  }
  await probeWritable(await existingDirectory(path, context), context)
}
