/**
 * @module eval: the episodes of one side of `eval compare`. Accepts an episodes JSONL file (LLM runs, or
 * policy runs written with `--episodes-out`) or a summary JSON whose `run.episodes_path` points at one,
 * optionally suffixed `#<policy>` to pick one policy of a multi-policy file. Episodes are keyed by their
 * row's content (the row without its prompt) and sample / repeat number, so two runs pair row by row.
 */

import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { ErrorCode } from '../core/errors/error-code.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { canonicalJson } from '../core/json/canonical-json.js'
import type { JsonObject } from '../core/json/json-value.js'

export interface ComparedEpisode {
  /** Row identity + sample: the pairing key. */
  key: string
  /** Row identity: the bootstrap resamples rows. */
  row: string
  fields: JsonObject
  reward: number
  rates: Record<string, boolean>
  values: Record<string, number>
}

export interface ComparedRun {
  label: string
  path: string
  policy: string
  episodes: ComparedEpisode[]
  /** LLM episodes that were not scored (infrastructure or tool errors). */
  unscored: number
}

const resultKeys = new Set([
  'policy',
  'reward',
  'terminal_reason',
  'terminated',
  'truncated',
  'end',
  'step_count',
  'metrics',
  'outcome',
  'steps',
])

const identity = (fields: JsonObject) => createHash('sha256').update(canonicalJson(fields)).digest('hex').slice(0, 16)

function invalid(path: string, message: string, code: ErrorCode = 'invalid_compare_input'): InvalidInputError {
  return new InvalidInputError({ code, path, message, issues: [] })
}

async function episodesPathOf(path: string, policy: string | undefined): Promise<{ path: string; policy: string | undefined }> {
  if (!path.endsWith('.json')) return { path, policy }
  let summary: Record<string, { run?: { episodes_path?: string } }>
  try {
    summary = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw invalid(path, `Cannot read the summary ${path}: ${(error as Error).message}`)
  }
  const names = Object.keys(summary)
  const chosen = policy ?? (names.length === 1 ? names[0] : undefined)
  if (chosen === undefined || !summary[chosen])
    throw invalid(path, `Pick one of the policies in ${path} with ${path}#<name>: ${names.join(', ')}.`, 'ambiguous_policy')
  const episodes = summary[chosen]?.run?.episodes_path
  if (typeof episodes !== 'string')
    throw invalid(
      path,
      `${path} names no episodes file (run.episodes_path): run eval with --episodes-out to compare.`,
      'no_episodes',
    )
  return { path: resolve(dirname(path), episodes), policy: chosen }
}

export async function loadComparedRun(spec: string): Promise<ComparedRun> {
  const hash = spec.lastIndexOf('#')
  const given = hash > 0 ? spec.slice(0, hash) : spec
  const located = await episodesPathOf(given, hash > 0 ? spec.slice(hash + 1) : undefined)
  let text: string
  try {
    text = await readFile(located.path, 'utf8')
  } catch (error) {
    throw invalid(located.path, `Cannot read the episodes file ${located.path}: ${(error as Error).message}`)
  }
  const lines: Record<string, unknown>[] = []
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return
    try {
      lines.push(JSON.parse(line))
    } catch {
      throw invalid(`${located.path}:${index + 1}`, `Line ${index + 1} of ${located.path} is not JSON.`)
    }
  })
  const policies = [...new Set(lines.map((line) => String(line.policy)))]
  const policy = located.policy ?? (policies.length === 1 ? policies[0] : undefined)
  if (policy === undefined || !policies.includes(policy)) {
    throw invalid(
      located.path,
      `Pick one of the policies in ${located.path} with ${given}#<name>: ${policies.join(', ')}.`,
      'ambiguous_policy',
    )
  }
  const occurrences = new Map<string, number>()
  const episodes: ComparedEpisode[] = []
  let unscored = 0
  for (const line of lines) {
    if (String(line.policy) !== policy) continue
    if (line.status !== undefined && line.status !== 'scored') {
      unscored++
      continue
    }
    const outcome = line.outcome as { rates?: Record<string, boolean>; values?: Record<string, number> } | undefined
    if (typeof line.reward !== 'number' || !outcome?.rates || !outcome.values)
      throw invalid(located.path, `${located.path} holds a line without reward and outcome.`)
    const fields = (
      line.row_key !== undefined ? line.row : Object.fromEntries(Object.entries(line).filter(([key]) => !resultKeys.has(key)))
    ) as JsonObject
    const row = identity(fields)
    const occurrence = typeof line.sample === 'number' ? line.sample : (occurrences.get(row) ?? 0)
    occurrences.set(row, occurrence + 1)
    episodes.push({ key: `${row}#${occurrence}`, row, fields, reward: line.reward, rates: outcome.rates, values: outcome.values })
  }
  return {
    label: hash > 0 ? spec : `${given}${policies.length > 1 ? `#${policy}` : ''}`,
    path: located.path,
    policy,
    episodes,
    unscored,
  }
}
