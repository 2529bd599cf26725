/**
 * @module release/contracts: the parts every release kind's `export_report.json` shares (sft, rl,
 * trajectories, mixtures), built in one place so the kinds cannot drift apart: the task's identity, the
 * hashes of the inputs, the label-gap refusal, and the published-release block with every artifact's hash.
 */
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { splitNames } from './canonical-record.js'

/** What task the rows were built for. */
export function taskIdentity(task: GradingTask): { metadata_fields: string[]; task_name: string; registry_size: number } {
  return {
    metadata_fields: [...task.taskConfig.metadata_fields],
    task_name: task.taskConfig.task_name,
    registry_size: task.registry.categories.length,
  }
}

/** The SHA-256 of every input a canonical-records export read. */
export function exportInputs(options: { canonicalSha256: string; loaded: LoadedTask }): Record<string, string | null> {
  const { hashes } = options.loaded
  return {
    canonical_sha256: options.canonicalSha256,
    registry_sha256: hashes.registry,
    corpus_sha256: hashes.corpus,
    task_config_sha256: hashes.task_config,
    grading_sha256: hashes.grading,
  }
}

export type PublishedRelease = { status: 'passed'; published: true; artifacts_sha256: Record<string, string> }

/** The release block: one `<split>.parquet` artifact per split, with its hash. */
export function publishedRelease(splits: Readonly<Record<string, { parquet_sha256: string }>>): PublishedRelease {
  const artifacts: Record<string, string> = {}
  for (const split of splitNames) {
    const written = splits[split]
    if (!written) throw new InternalInvariantError(`no ${split} split to publish`)
    artifacts[`${split}.parquet`] = written.parquet_sha256
  }
  return { status: 'passed', published: true, artifacts_sha256: artifacts }
}

interface GateGaps {
  blocking: readonly { label: string; split: string }[]
  blocking_levels: readonly { label: string; split: string }[]
}

/**
 * What to do about a label gap: split again (a random split keeps every label in train), or waive it with
 * the flag's real syntax, knowing that a waived release is for inspection: a mixture (the training input)
 * takes only releases whose gate passed, because a mixture must train on every label it evaluates.
 */
function labelGapRemedy(labels: readonly string[]): string {
  const unique = [...new Set(labels)]
  const waivers = unique.map((label) => `--allow-label-gaps '${label}'`).join(' ')
  return `Split again so train holds every label (\`release canonical split --overwrite\`: a random split keeps every category and level in train; a group split cannot), or, after review, waive with ${waivers} (or --allow-any-label-gap). A waived release validates but \`mixture build\` refuses it: a mixture must train on every label it evaluates.`
}

/** The refusal of a plan whose label-gap gate failed (`path`: the file; `source`: its name in issue paths). */
export function labelGapError(options: { path: string; source: string; gate: GateGaps }): InvalidInputError {
  const gaps = [...options.gate.blocking, ...options.gate.blocking_levels]
  return new InvalidInputError({
    code: 'label_gap',
    path: options.path,
    message: `Label-gap gate failed: ${gaps.map((gap) => `${gap.label} (in ${gap.split}, not in train)`).join(', ')}. ${labelGapRemedy(gaps.map((gap) => gap.label))}`,
    issues: gaps.map((gap) => ({
      code: 'label_gap',
      path: `${options.source}:split=${gap.split}`,
      message: `label ${gap.label} is absent from train`,
    })),
  })
}
