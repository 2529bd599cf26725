/** @module release/io: single-file outputs are written to a temporary file beside them, then renamed. */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { outputExistsError } from './publish-directory.js'

export function writeFileAtomic(options: { path: string; overwrite?: boolean; write(temporary: string): void }): void {
  if (existsSync(options.path) && !options.overwrite) throw outputExistsError(options.path)
  mkdirSync(dirname(options.path), { recursive: true })
  const temporary = join(dirname(options.path), `.${basename(options.path)}.tmp-${process.pid}`)
  rmSync(temporary, { force: true })
  try {
    options.write(temporary)
    renameSync(temporary, options.path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** The same for an asynchronous writer (a stage that streams its output while it reads its input). */
export async function writeFileAtomicAsync(options: {
  path: string
  overwrite?: boolean
  write(temporary: string): Promise<void>
}): Promise<void> {
  if (existsSync(options.path) && !options.overwrite) throw outputExistsError(options.path)
  mkdirSync(dirname(options.path), { recursive: true })
  const temporary = join(dirname(options.path), `.${basename(options.path)}.tmp-${process.pid}`)
  rmSync(temporary, { force: true })
  try {
    await options.write(temporary)
    renameSync(temporary, options.path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** A JSON report (two-space indent, trailing newline), written atomically. */
export function writeJsonReport(options: { path: string; overwrite?: boolean; value: unknown }): void {
  writeFileAtomic({
    path: options.path,
    overwrite: options.overwrite ?? false,
    write: (temporary) => writeFileSync(temporary, `${JSON.stringify(options.value, null, 2)}\n`),
  })
}
