/**
 * @module eval: an LLM eval run = env id + dataset rows × samples + an agent + bounded concurrency.
 * Episodes stream to the episodes file as they finish; a resumed run reads it, keeps every scored
 * episode, and runs only the rest (infra-failed ones included). Fatal endpoint errors stop the run after
 * the in-flight episodes; what was written stays, so the run can be resumed once the cause is fixed.
 */
import type { Agent } from '../agent/agent.js'
import { runEpisode } from '../agent/run-episode.js'
import type { Env } from '../core/env/env-api.js'
import type { DatasetRow } from '../core/env/env-dataset.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { EpisodesWriter, readEpisodesFile } from './episodes-file.js'
import { type LlmEpisodeLine, llmEpisodeLine, rowKey } from './llm-episode-record.js'

export interface RunLlmEvalOptions {
  envId: string
  envs: EnvRegistry
  rows: readonly DatasetRow[]
  agent: Agent
  /** Episodes per row (pass^k needs k > 1). */
  samples?: number
  /** Episodes in flight at once. */
  concurrency?: number
  maxTurns?: number
  maxEpisodeSteps?: number
  /** JSONL log of finished episodes; required to resume. */
  episodesPath?: string
  /** Continue from `episodesPath` instead of refusing to touch it. */
  resume?: boolean
  /** Settings hash written into every line; a resume with other settings is refused. */
  fingerprint: string
  /** Keep each episode's messages in its line (default true). */
  recordTrajectories?: boolean
  signal?: AbortSignal
  onEpisode?: (line: LlmEpisodeLine, done: number, total: number) => void
}

export interface LlmEvalRun {
  /** Every finished episode (resumed ones included), in row-then-sample order: the last line per task wins. */
  lines: LlmEpisodeLine[]
  resumed: number
  ran: number
  droppedBytes: number
  aborted: boolean
}

interface Task {
  rowIndex: number
  sample: number
}

const taskKey = (rowIndex: number, sample: number) => `${rowIndex}/${sample}`

async function loadResume(options: RunLlmEvalOptions, keys: readonly string[]) {
  const finished = new Map<string, LlmEpisodeLine>()
  if (!options.episodesPath) return { finished, droppedBytes: 0 }
  const existing = await readEpisodesFile(options.episodesPath)
  if (existing.lines.length > 0 && !options.resume) {
    throw new InvalidInputError({
      code: 'episodes_file_exists',
      path: options.episodesPath,
      message: `${options.episodesPath} already holds ${existing.lines.length} episode(s): pass --resume to continue that run, or choose another file.`,
      issues: [],
    })
  }
  for (const line of existing.lines) {
    const where = `${options.episodesPath}: row ${line.row_index} sample ${line.sample}`
    if (line.run !== options.fingerprint) {
      throw new InvalidInputError({
        code: 'resume_mismatch',
        path: options.episodesPath,
        message: `${where} was written by a run with other settings (env, dataset, model, mode, sampling, samples or turns); resume with the same settings or use another file.`,
        issues: [],
      })
    }
    if (keys[line.row_index] !== line.row_key) {
      throw new InvalidInputError({
        code: 'resume_mismatch',
        path: options.episodesPath,
        message: `${where} belongs to a different dataset row.`,
        issues: [],
      })
    }
    finished.set(taskKey(line.row_index, line.sample), line)
  }
  return { finished, droppedBytes: existing.droppedBytes }
}

export async function runLlmEval(options: RunLlmEvalOptions): Promise<LlmEvalRun> {
  const registration = options.envs.get(options.envId)
  const summarize = registration.summarizeEpisode
  if (!summarize)
    throw new InvalidInputError({
      code: 'no_episode_summary',
      message: `Env ${options.envId} declares no episode summary; it cannot be evaluated.`,
      issues: [],
    })
  const dataset = registration.dataset
  const samples = options.samples ?? 1
  const keys = options.rows.map((row) => rowKey(dataset ? dataset.serializeRow(row) : JSON.stringify(row)))
  const { finished, droppedBytes } = await loadResume(options, keys)
  const resumed = [...finished.values()].filter((line) => line.status === 'scored').length
  const tasks: Task[] = []
  for (let rowIndex = 0; rowIndex < options.rows.length; rowIndex++) {
    for (let sample = 0; sample < samples; sample++) {
      if (finished.get(taskKey(rowIndex, sample))?.status !== 'scored') tasks.push({ rowIndex, sample })
    }
  }
  const writer = options.episodesPath ? await EpisodesWriter.open(options.episodesPath) : undefined
  const total = options.rows.length * samples
  let done = resumed
  let next = 0
  let ran = 0
  let failure: unknown
  const runTask = async (env: Env, task: Task) => {
    const row = options.rows[task.rowIndex] as DatasetRow
    const result = await runEpisode({
      env,
      agent: options.agent,
      reset: dataset ? dataset.toResetParams(row) : { seed: row.seed },
      prompt: row.prompt,
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    const outcome = summarize({ info: result.info, terminated: result.terminated, truncated: result.truncated })
    const line = llmEpisodeLine({
      task,
      rowKey: keys[task.rowIndex] as string,
      row,
      policy: options.agent.name,
      result,
      outcome,
      fingerprint: options.fingerprint,
      recordTrajectory: options.recordTrajectories !== false,
    })
    await writer?.append(line)
    finished.set(taskKey(task.rowIndex, task.sample), line)
    ran++
    if (line.status === 'scored') done++
    options.onEpisode?.(line, done, total)
  }
  const worker = async () => {
    const env = options.envs.make(
      options.envId,
      options.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: options.maxEpisodeSteps },
    )
    while (failure === undefined && !options.signal?.aborted && next < tasks.length) {
      const task = tasks[next++] as Task
      try {
        await runTask(env, task)
      } catch (error) {
        if (options.signal?.aborted) return
        failure ??= error
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, tasks.length)) }, worker))
  } finally {
    await writer?.close()
  }
  if (failure !== undefined) throw failure
  const lines = inTaskOrder(finished, options.rows.length, samples)
  return { lines, resumed, ran, droppedBytes, aborted: options.signal?.aborted === true }
}

/** The finished lines in row-then-sample order. */
function inTaskOrder(finished: ReadonlyMap<string, LlmEpisodeLine>, rows: number, samples: number): LlmEpisodeLine[] {
  const lines: LlmEpisodeLine[] = []
  for (let rowIndex = 0; rowIndex < rows; rowIndex++) {
    for (let sample = 0; sample < samples; sample++) {
      const line = finished.get(taskKey(rowIndex, sample))
      if (line) lines.push(line)
    }
  }
  return lines
}
