/**
 * @module io: when a stage fails, a failed-audit JSON records what was attempted and why, beside
 * the output that was not published (`<output>.failed.json`, suffixed when that exists). A stage holds its
 * output's lock while it runs, so a second writer of the same output is refused before it starts work.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { withOutputLock } from './output-lock.js'

function freeFailedAuditPath(path: string): string {
  if (!existsSync(path)) return path
  const stem = path.endsWith('.json') ? path.slice(0, -'.json'.length) : path
  for (let index = 1; ; index++) {
    const candidate = `${stem}.${index}.json`
    if (!existsSync(candidate)) return candidate
  }
}

/** Writes the failed audit and returns its path. */
function writeFailedAudit(options: { path: string; stage: string; output: string; error: unknown }): string {
  const path = freeFailedAuditPath(options.path)
  const error = ReleaseOpsError.isInstance(options.error)
    ? options.error.toJSON()
    : { code: 'internal_error', message: options.error instanceof Error ? options.error.message : String(options.error) }
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(
    path,
    `${JSON.stringify({ format: 'release-failed-audit-v1', status: 'failed', stage: options.stage, output: options.output, published: false, error }, null, 2)}\n`,
  )
  return path
}

/** Runs a stage; on failure writes its failed audit (and says where on stderr), then rethrows. */
export async function withFailedAudit<T>(
  options: { stage: string; output: string; failedAudit?: string },
  run: () => Promise<T>,
): Promise<T> {
  try {
    mkdirSync(dirname(options.output), { recursive: true })
    return await withOutputLock(options.output, run)
  } catch (error) {
    const path = writeFailedAudit({
      path: options.failedAudit ?? `${options.output}.failed.json`,
      stage: options.stage,
      output: options.output,
      error,
    })
    process.stderr.write(`${options.stage} failed; nothing was published; failed audit: ${path}\n`)
    throw error
  }
}
