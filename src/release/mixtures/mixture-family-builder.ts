/**
 * @module release/mixtures: what a mixture family provides: the input format it accepts, how it reads
 * and validates an input release into source groups, how a planned episode becomes rows, and the
 * validator its output must pass.
 */
import type { MaterializedSplit } from './materialize-split.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import type { SamplingPolicy } from './mixture-plan.js'
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
