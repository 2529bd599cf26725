/**
 * @module release/mixtures: the builder of each mixture family (`MixtureFamilyBuilder`, the contract,
 * lives in its own file so the family modules can implement it without importing this registry).
 */
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { groupedFamilyBuilder, type MixtureFamilyBuilder } from './mixture-family-builder.js'
import { type MixtureFamily, mixtureFamilies } from './mixture-report.js'
import type { MixtureTasks } from './mixture-tasks.js'
import { projectRlCascade, readRlCascadeInput, rlCascadeInputFormat, rlCascadeKey } from './rl-cascade-family.js'
import { projectSft, readSftInput, type SftMixtureRow, sftInputFormat, sftKey, sftValidator } from './sft-family.js'
import { trajectoryMixtureBuilder } from './trajectory-family.js'
import { rlCascadeValidator } from './validate-cascade.js'

function rlCascadeBuilder(tasks: MixtureTasks): MixtureFamilyBuilder {
  return groupedFamilyBuilder({
    inputFormat: rlCascadeInputFormat,
    rowFormat: 'verl_rl_parquet (stage1 native-tool episodes)',
    validator: rlCascadeValidator(tasks),
    read: (spec) => readRlCascadeInput(spec, tasks.byDataset[spec.dataset] as MixtureTasks['byDataset'][string]),
    project: projectRlCascade,
    key: rlCascadeKey,
  })
}

function sftBuilder(tasks: MixtureTasks): MixtureFamilyBuilder {
  const builders = new Map(
    Object.entries(tasks.byDataset).map(([dataset, loaded]) => [dataset, new LegacyPromptBuilder(loaded.task)]),
  )
  return groupedFamilyBuilder({
    inputFormat: sftInputFormat,
    rowFormat: 'verl_sft_messages_parquet (legacy stage pairs) + mixture_provenance',
    validator: sftValidator(tasks),
    read: (spec) => readSftInput(spec, tasks.byDataset[spec.dataset] as MixtureTasks['byDataset'][string]),
    project: (episode, pair: [SftMixtureRow, SftMixtureRow]) =>
      projectSft(episode, pair, builders.get(episode.dataset) as LegacyPromptBuilder),
    key: sftKey,
  })
}

export function mixtureFamilyBuilder(family: MixtureFamily, tasks: MixtureTasks): MixtureFamilyBuilder {
  switch (family) {
    case 'rl-cascade':
      return rlCascadeBuilder(tasks)
    case 'sft':
      return sftBuilder(tasks)
    case 'trajectory':
      return trajectoryMixtureBuilder(tasks)
    default:
      throw new UnknownNameError({ kind: 'mixture_family', name: String(family), known: mixtureFamilies })
  }
}
