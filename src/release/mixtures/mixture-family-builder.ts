/**
 * @module release/mixtures: what a mixture family provides: the input format it accepts, how it reads
 * and validates an input release into source groups, how a planned episode becomes rows, and the
 * validator its output must pass.
 */
import { type MaterializedSplit, materializeSplit } from './materialize-split.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import type { PlannedEpisode, SamplingPolicy } from './mixture-plan.js'
import type { MixtureRowValidator } from './validate-mixture-release.js'

export interface MixtureFamilyBuilder {
  inputFormat: string
  /** The row format id written into the report. */
  rowFormat: string
  validator: MixtureRowValidator
  read(spec: MixtureInputSpec): Promise<void>
  materialize(split: string, policy: SamplingPolicy): MaterializedSplit<unknown>
  /** Report fields the family adds (after `read`), e.g. the trajectory family's thinking flag. */
  reportExtras?(): Record<string, unknown>
}

/**
 * The usual builder: `read` turns an input release into its source groups per split (keyed by source
 * id); materializing a split samples the groups of every dataset and projects the planned episodes.
 */
export function groupedFamilyBuilder<Group, Row>(options: {
  inputFormat: string
  rowFormat: string
  validator: MixtureRowValidator
  read(spec: MixtureInputSpec): Promise<Record<string, Map<string, Group>>>
  project(episode: PlannedEpisode, group: Group): Row[]
  key(row: Row): { id: string; stage: string }
  reportExtras?: () => Record<string, unknown>
}): MixtureFamilyBuilder {
  const groups: Record<string, Record<string, Map<string, Group>>> = {}
  return {
    inputFormat: options.inputFormat,
    rowFormat: options.rowFormat,
    validator: options.validator,
    async read(spec) {
      groups[spec.dataset] = await options.read(spec)
    },
    materialize(split, policy) {
      return materializeSplit({
        split,
        policy,
        groups: Object.fromEntries(
          Object.entries(groups).map(([dataset, bySplit]) => [dataset, bySplit[split] as Map<string, Group>]),
        ),
        project: options.project,
        key: options.key,
      })
    },
    ...(options.reportExtras ? { reportExtras: options.reportExtras } : {}),
  }
}
