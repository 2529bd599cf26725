/**
 * @module io: atomic publication. A release directory is built in a staging directory beside the
 * target, validated, then renamed into place. A failure removes the staging directory and leaves no target;
 * an existing non-empty target is never overwritten unless the command explicitly replaces it. One writer
 * per target: the publisher holds the target's lock (`output-lock.ts`) from its first check to the rename.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { acquireOutputLock } from './output-lock.js'
import { processAlive } from './process-alive.js'

let stagingCounter = 0

export function isNonEmptyDirectory(path: string): boolean {
  if (!existsSync(path)) return false
  if (!statSync(path).isDirectory()) return true
  return readdirSync(path).length > 0
}

export function outputExistsError(path: string): ReleaseOpsError {
  return new ReleaseOpsError({
    code: 'output_exists',
    path,
    message: `Output ${path} already exists and is not empty; it is never overwritten. Choose a new path${' '}or remove it first.`,
  })
}

export interface PublishDirectoryOptions {
  target: string
  /** Replace an existing target (commands that rewrite their own output, such as `canonical split`). */
  replace?: boolean
  /** Fills the staging directory and validates it; throwing aborts the publication. */
  build(staging: string): Promise<void> | void
}

/**
 * Cleans up after a killed publisher of `target`: its staging directories are removed, and a previous
 * copy it had moved aside is put back when the target is missing (else removed). Live processes' are kept.
 */
export function recoverStalePublications(target: string): void {
  const parent = dirname(target)
  if (!existsSync(parent)) return
  const prefix = `.${basename(target)}.`
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue
    const match = /^(staging|previous)-(\d+)-\d+$/.exec(name.slice(prefix.length))
    if (!match || processAlive(Number(match[2]))) continue
    const path = join(parent, name)
    if (match[1] === 'previous' && !existsSync(target)) renameSync(path, target)
    else rmSync(path, { recursive: true, force: true })
  }
}

function checkTarget(target: string, replace: boolean | undefined): void {
  const exists = existsSync(target)
  if (exists && !statSync(target).isDirectory()) throw outputExistsError(target)
  if (exists && !replace && isNonEmptyDirectory(target)) throw outputExistsError(target)
}

function prepareStaging(target: string, replace: boolean | undefined): string {
  recoverStalePublications(target)
  checkTarget(target, replace)
  const parent = dirname(target)
  const staging = join(parent, `.${basename(target)}.staging-${process.pid}-${++stagingCounter}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging)
  return staging
}

function commitStaging(staging: string, target: string, replace: boolean | undefined): void {
  // The lock keeps other publishers out; a target made meanwhile by anything else is still never replaced.
  checkTarget(target, replace)
  if (!existsSync(target)) {
    renameSync(staging, target)
    return
  }
  const previous = join(dirname(target), `.${basename(target)}.previous-${process.pid}-${++stagingCounter}`)
  renameSync(target, previous)
  try {
    renameSync(staging, target)
  } catch (error) {
    renameSync(previous, target)
    rmSync(staging, { recursive: true, force: true })
    throw error
  }
  rmSync(previous, { recursive: true, force: true })
}

export async function publishDirectory(options: PublishDirectoryOptions): Promise<void> {
  mkdirSync(dirname(options.target), { recursive: true })
  const lock = acquireOutputLock(options.target)
  try {
    const staging = prepareStaging(options.target, options.replace)
    try {
      await options.build(staging)
      commitStaging(staging, options.target, options.replace)
    } catch (error) {
      rmSync(staging, { recursive: true, force: true })
      throw error
    }
  } finally {
    lock.release()
  }
}
