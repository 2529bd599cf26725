/**
 * The episodes file the replay tests list: releaseops-v2 eval rows played by `policies` (steps recorded),
 * written as `evals/<name>/episodes.jsonl` under the server's outputs root, as `releaseops eval` writes it.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { envRegistry } from '../../src/envs/index.js'
import { episodeLine } from '../../src/eval/episode-record.js'
import { runEval } from '../../src/eval/run-eval.js'
import type { OperationsServer } from './operations-server.js'

export type EpisodeLine = ReturnType<typeof episodeLine>

export async function writeEvalEpisodes(options: {
  server: OperationsServer
  name: string
  rows: number
  policies: string[]
  /** Orders the lines before writing (an eval groups them by policy). */
  order?: (left: EpisodeLine, right: EpisodeLine) => number
}): Promise<{ lines: EpisodeLine[]; text: string }> {
  const rows = envRegistry.get('releaseops-v2').dataset?.rows('eval').slice(0, options.rows) ?? []
  const records = await runEval({ envId: 'releaseops-v2', rows, policies: options.policies, recordSteps: true })
  const lines = records.map(episodeLine)
  if (options.order) lines.sort(options.order)
  const text = lines.map((line) => JSON.stringify(line)).join('\n')
  await mkdir(join(options.server.outputs, 'evals', options.name), { recursive: true })
  await writeFile(join(options.server.outputs, 'evals', options.name, 'episodes.jsonl'), `${text}\n`)
  return { lines, text }
}
