/**
 * @module release/trajectories/think: where an export's thoughts come from (`--think-source`): `mock`
 * (placeholders), `none` (thinking disabled: empty reasoning, `enable_thinking` false) or
 * `file:<jsonl or dir>`; and how a row's raw thoughts become its reasoning: each held to the token limit
 * by the policy and checked, problems collected as issues naming the sample and turn. Mock thoughts are
 * also checked for the ground truth (its category id, display name and level).
 */
import type { InputIssue } from '../../../core/errors/invalid-input-error.js'
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../../envs/grading/grading-task.js'
import type { Trajectory } from '../build-trajectory.js'
import type { CollectLine } from '../collect-line.js'
import type { ThinkOverLimitPolicy, ThinkSourceKind } from '../trajectory-format.js'
import type { RowThoughts } from '../trajectory-row.js'
import { prepareThought } from './check-thought.js'
import { FileThoughtSource } from './file-thought-source.js'
import { mockThoughts } from './mock-thoughts.js'

export interface ThoughtStats {
  thoughts: number
  truncated: number
  discarded: number
  empty: number
  max_tokens_seen: number
}

export interface ThoughtProvider {
  kind: ThinkSourceKind
  /** The raw thoughts of a trajectory; undefined when they cannot be had (an issue is recorded). */
  thoughts(trajectory: Trajectory, split: CollectLine['split']): { tool: readonly string[]; final: string } | undefined
  /** Issues found so far (and, after `finish`, lines for samples not in the release). */
  readonly issues: InputIssue[]
  finish(): void
  describe(): Record<string, unknown>
}

export function parseThinkSource(value: string): { kind: ThinkSourceKind; path?: string } {
  if (value === 'mock' || value === 'none') return { kind: value }
  if (value.startsWith('file:') && value.length > 'file:'.length) return { kind: 'file', path: value.slice('file:'.length) }
  throw new InvalidInputError({
    code: 'invalid_option',
    path: '--think-source',
    message: `--think-source must be mock, none or file:<jsonl file or directory>, got "${value}".`,
    issues: [{ code: 'invalid_option', path: '--think-source', message: 'mock | none | file:<path>' }],
  })
}

export function createThoughtProvider(spec: string): ThoughtProvider {
  const parsed = parseThinkSource(spec)
  if (parsed.kind === 'file') {
    const source = new FileThoughtSource(parsed.path as string)
    return {
      kind: 'file',
      issues: source.issues,
      thoughts: (trajectory, split) => source.thoughtsFor(trajectory, split),
      finish: () => source.checkUnused(),
      describe: () => ({
        files: source.files.map((file) => ({ file: file.path.split(/[\\/]/).at(-1), sha256: file.sha256, lines: file.lines })),
        sha256: source.sha256,
      }),
    }
  }
  const empty = (trajectory: Trajectory) => ({ tool: trajectory.calls.map(() => ''), final: '' })
  return {
    kind: parsed.kind,
    issues: [],
    thoughts: parsed.kind === 'mock' ? mockThoughts : empty,
    finish() {},
    describe: () => (parsed.kind === 'mock' ? { note: 'placeholder thoughts for tests and demos; refused by --formal' } : {}),
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function mentions(text: string, needle: string): boolean {
  return needle !== '' && text.includes(needle)
}

/** The row's thoughts, prepared; problems become issues (and the row's thoughts are then unusable). */
export function prepareRowThoughts(options: {
  raw: { tool: readonly string[]; final: string }
  trajectory: Trajectory
  task: GradingTask
  kind: ThinkSourceKind
  maxTokens: number
  policy: ThinkOverLimitPolicy
  stats: ThoughtStats
  issues: InputIssue[]
}): RowThoughts | undefined {
  const { trajectory, task } = options
  const texts = [...options.raw.tool, options.raw.final]
  const answer = task.choices.byCategory(trajectory.groundTruth)
  const prepared = texts.map((text, turn) => {
    const thought = prepareThought(text, { maxTokens: options.maxTokens, policy: options.policy })
    const where = `sample ${trajectory.sourceId}:${turn < options.raw.tool.length ? `tool_think.${turn}` : 'think'}`
    for (const problem of thought.problems) options.issues.push({ code: problem.code, path: where, message: problem.message })
    if (
      options.kind === 'mock' &&
      (mentions(thought.text, trajectory.groundTruth) ||
        mentions(thought.text, answer.displayName) ||
        new RegExp(`\\b${escapeRegExp(trajectory.groundTruthLevel)}\\b`).test(thought.text))
    )
      options.issues.push({ code: 'think_answer_leak', path: where, message: 'a mock thought names the ground truth' })
    const stats = options.stats
    stats.thoughts++
    if (thought.truncated) stats.truncated++
    if (thought.discarded) stats.discarded++
    if (thought.text === '') stats.empty++
    stats.max_tokens_seen = Math.max(stats.max_tokens_seen, thought.tokens)
    return thought
  })
  if (prepared.some((thought) => thought.problems.length > 0)) return undefined
  return {
    tool: prepared.slice(0, -1).map((thought) => thought.text),
    final: (prepared.at(-1) as { text: string }).text,
    truncated: prepared.some((thought) => thought.truncated),
    discarded: prepared.some((thought) => thought.discarded),
  }
}
