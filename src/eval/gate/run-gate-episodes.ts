/**
 * @module eval/gate: runs the gate's episodes (every row × samples) through the one agent loop, with
 * bounded concurrency and one env per worker, in a fixed row-then-sample order. A fatal endpoint error
 * (bad key, unknown model) stops the run and is rethrown; a retryable one that outlasted its retries ends
 * its episode as an infrastructure fault, which the report counts apart from the model's results.
 */
import type { Agent } from '../../agent/agent.js'
import { runEpisode } from '../../agent/run-episode.js'
import type { AnyEnv, ResetParams } from '../../core/env/env-api.js'
import { type GateEpisode, gateEpisode } from './gate-episode.js'

export interface GateRow {
  key: string
  dataset: string | null
  reset: ResetParams
  prompt: unknown
  /** The row's label class (grading: `<category_id>|<level>`), for the answer-diversity yardstick. */
  label?: string
}

export interface GateLoopSettings {
  /** Assistant turns at most (VeRL `max_assistant_turns`). */
  maxTurns: number
  /** Calls executed per turn (VeRL `max_parallel_calls`). */
  maxToolCallsPerTurn: number
  /** The env's reserved final action, when a reply without calls is the answer. */
  finalAction?: string
}

export async function runGateEpisodes(options: {
  rows: readonly GateRow[]
  samples: number
  createEnv: () => AnyEnv
  agent: Agent
  loop: GateLoopSettings
  concurrency: number
  keepTrajectories?: boolean
  signal?: AbortSignal
  onEpisode?: (done: number, total: number) => void
}): Promise<GateEpisode[]> {
  const tasks: { rowIndex: number; sample: number }[] = []
  for (let rowIndex = 0; rowIndex < options.rows.length; rowIndex++)
    for (let sample = 0; sample < options.samples; sample++) tasks.push({ rowIndex, sample })
  const episodes: GateEpisode[] = new Array(tasks.length)
  let next = 0
  let done = 0
  let failure: unknown
  const worker = async () => {
    const env = options.createEnv()
    while (failure === undefined && !options.signal?.aborted && next < tasks.length) {
      const index = next++
      const task = tasks[index] as { rowIndex: number; sample: number }
      const row = options.rows[task.rowIndex] as GateRow
      try {
        const result = await runEpisode({
          env,
          agent: options.agent,
          reset: row.reset,
          prompt: row.prompt,
          maxTurns: options.loop.maxTurns,
          maxToolCallsPerTurn: options.loop.maxToolCallsPerTurn,
          ...(options.signal ? { signal: options.signal } : {}),
        })
        episodes[index] = gateEpisode({
          result,
          rowIndex: task.rowIndex,
          sample: task.sample,
          key: row.key,
          dataset: row.dataset,
          ...(options.loop.finalAction ? { finalAction: options.loop.finalAction } : {}),
          ...(options.keepTrajectories ? { keepTrajectory: true } : {}),
        })
        options.onEpisode?.(++done, tasks.length)
      } catch (error) {
        failure ??= error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, tasks.length)) }, worker))
  if (failure !== undefined) throw failure
  return episodes.filter((episode) => episode !== undefined)
}
