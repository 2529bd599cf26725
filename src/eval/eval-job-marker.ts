/**
 * @module eval: an eval job's status on disk (`evals/<job_id>/job.json`), so that what happened to a job
 * outlives the server. The marker is written when the job starts (`running`, with the server's pid), on
 * its end (its verdict), and on a shutdown that cut it short (`interrupted`). A server that starts and
 * finds a `running` marker whose process is gone (killed, crashed, the machine restarted) records it as
 * `interrupted`: no job is ever left looking alive, nor lost behind an `idle`.
 */
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'

const evalJobStates = ['idle', 'running', 'succeeded', 'degraded', 'failed', 'cancelled', 'interrupted'] as const
export type EvalJobState = (typeof evalJobStates)[number]

const jobError = z.object({ code: z.string(), message: z.string() })

/** What `GET /api/eval` answers, less the summary (which lives in its own file). */
const evalJobRecordSchema = z.object({
  state: z.enum(evalJobStates),
  job_id: z.string().nullable(),
  env_id: z.string().nullable(),
  split: z.string().nullable(),
  agents: z.array(z.string()),
  done: z.int().nonnegative(),
  total: z.int().nonnegative(),
  /** The rows the job plays, and how they were chosen from the split (`all`, or `stratified` by the group keys). */
  rows: z
    .object({ selected: z.int(), of: z.int(), selection: z.enum(['all', 'stratified']), by: z.array(z.string()) })
    .nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  /** Relative to the outputs root. */
  summary_path: z.string().nullable(),
  episodes_path: z.string().nullable(),
  /** Why the job is not `succeeded` (failed, degraded, cancelled, interrupted). */
  error: jobError.nullable(),
  /** Episodes scored and unscored (endpoint or tool faults), once the job has ended. */
  scored: z.int().nonnegative().nullable(),
  unscored: z.int().nonnegative().nullable(),
  failure_share: z.number().nullable(),
  /** Above this share of unscored episodes the job is `degraded`. */
  max_failure_share: z.number().nullable(),
})
export type EvalJobRecord = z.output<typeof evalJobRecordSchema>

const evalJobMarkerSchema = evalJobRecordSchema.extend({
  marker_version: z.literal(1),
  /** The server process that ran the job. */
  pid: z.int(),
  request: z.unknown(),
})
export type EvalJobMarker = z.output<typeof evalJobMarkerSchema>

const markerName = 'job.json'

/** Writes the marker through a temporary file and a rename, so a reader never sees half of one. */
export async function writeEvalJobMarker(folder: string, marker: EvalJobMarker): Promise<void> {
  const path = join(folder, markerName)
  await writeFile(`${path}.tmp`, `${JSON.stringify(marker, null, 2)}\n`)
  await rename(`${path}.tmp`, path)
}

function writeMarkerSync(folder: string, marker: EvalJobMarker): void {
  const path = join(folder, markerName)
  writeFileSync(`${path}.tmp`, `${JSON.stringify(marker, null, 2)}\n`)
  renameSync(`${path}.tmp`, path)
}

/** Whether a process with this pid exists (EPERM: it exists, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readMarker(folder: string): EvalJobMarker | undefined {
  let text: string
  try {
    text = readFileSync(join(folder, markerName), 'utf8')
  } catch {
    return undefined
  }
  try {
    const parsed = evalJobMarkerSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

export interface RecoverOptions {
  outputsRoot: string
  /** This server's pid: a marker naming it is not another live server's. */
  pid: number
  isAlive?: (pid: number) => boolean
  now: () => Date
}

/**
 * At server start: every `running` marker whose server is gone becomes `interrupted` on disk; returns the
 * latest job's marker (by start time), which `GET /api/eval` shows until a new job starts. A job still
 * running in another live server on the same outputs root is left alone and not shown.
 */
export function recoverEvalJobs(options: RecoverOptions): EvalJobMarker | undefined {
  const root = join(options.outputsRoot, 'evals')
  let names: string[]
  try {
    names = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return undefined
  }
  const isAlive = options.isAlive ?? processAlive
  let latest: EvalJobMarker | undefined
  for (const name of names.sort()) {
    const folder = join(root, name)
    let marker = readMarker(folder)
    if (!marker) continue
    if (marker.state === 'running') {
      if (marker.pid !== options.pid && isAlive(marker.pid)) continue
      marker = {
        ...marker,
        state: 'interrupted',
        error: {
          code: 'eval_interrupted',
          message: `The server stopped while this job ran (found at the restart of ${options.now().toISOString()}); its episodes so far are in its folder.`,
        },
      }
      writeMarkerSync(folder, marker)
    }
    if (!latest || (marker.started_at ?? '') >= (latest.started_at ?? '')) latest = marker
  }
  return latest
}
