/**
 * @module release/mixtures: the builder of each mixture family (`MixtureFamilyBuilder`, the contract,
 * lives in its own file so the family modules can implement it without importing this registry).
 */
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import type { RlRow } from '../rl/rl-row.js'
import { materializeSplit } from './materialize-split.js'
import type { MixtureFamilyBuilder } from './mixture-family-builder.js'
import { type MixtureFamily, mixtureFamilies } from './mixture-report.js'
import type { MixtureTasks } from './mixture-tasks.js'
import { projectRlCascade, readRlCascadeInput, rlCascadeInputFormat, rlCascadeKey } from './rl-cascade-family.js'
import { projectSft, readSftInput, type SftMixtureRow, sftInputFormat, sftKey, sftValidator } from './sft-family.js'
import { trajectoryMixtureBuilder } from './trajectory-family.js'
import { rlCascadeValidator } from './validate-cascade.js'

function rlCascadeBuilder(tasks: MixtureTasks): MixtureFamilyBuilder {
  const groups: Record<string, Record<string, Map<string, RlRow>>> = {}
  return {
    inputFormat: rlCascadeInputFormat,
    rowFormat: 'verl_rl_parquet (stage1 native-tool episodes)',
    validator: rlCascadeValidator(tasks),
    async read(spec) {
      groups[spec.dataset] = await readRlCascadeInput(spec, tasks.byDataset[spec.dataset] as MixtureTasks['byDataset'][string])
    },
    materialize(split, policy) {
      return materializeSplit({
        split,
        policy,
        groups: Object.fromEntries(
          Object.entries(groups).map(([dataset, bySplit]) => [dataset, bySplit[split] as Map<string, RlRow>]),
        ),
        project: projectRlCascade,
        key: rlCascadeKey,
      })
    },
  }
}

function sftBuilder(tasks: MixtureTasks): MixtureFamilyBuilder {
  const groups: Record<string, Record<string, Map<string, [SftMixtureRow, SftMixtureRow]>>> = {}
  const builders = new Map(
    Object.entries(tasks.byDataset).map(([dataset, loaded]) => [dataset, new LegacyPromptBuilder(loaded.task)]),
  )
  return {
    inputFormat: sftInputFormat,
    rowFormat: 'verl_sft_messages_parquet (legacy stage pairs) + mixture_provenance',
    validator: sftValidator(tasks),
    async read(spec) {
      groups[spec.dataset] = await readSftInput(spec, tasks.byDataset[spec.dataset] as MixtureTasks['byDataset'][string])
    },
    materialize(split, policy) {
      return materializeSplit({
        split,
        policy,
        groups: Object.fromEntries(
          Object.entries(groups).map(([dataset, bySplit]) => [
            dataset,
            bySplit[split] as Map<string, [SftMixtureRow, SftMixtureRow]>,
          ]),
        ),
        project: (episode, pair) => projectSft(episode, pair, builders.get(episode.dataset) as LegacyPromptBuilder),
        key: sftKey,
      })
    },
  }
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
