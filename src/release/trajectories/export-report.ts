/**
 * @module release/trajectories: `export_report.json` of a trajectory release: what was exported from
 * what (input hashes, task, thinking and where the thoughts came from), counts per split and class, a
 * digest of each split's source ids, the validation result and the artifacts' SHA-256. No timestamps and
 * no machine paths: the same inputs give the same report.
 */
import { z } from 'zod'
import { splitNames } from '../contracts/canonical-record.js'
import { trajectoryClasses } from './trajectory-class.js'
import { thinkOverLimitPolicies, thinkSourceKinds, trajectoryFormat, trajectoryReleaseFormat } from './trajectory-format.js'

const classCounts = z.record(z.enum(trajectoryClasses), z.number().int())

const splitSummarySchema = z.strictObject({
  rows: z.number().int(),
  by_class: classCounts,
  tool_calls: z.number().int(),
  /** sha256 of the split's source ids, sorted, one per line. */
  source_ids_sha256: z.string(),
  parquet_sha256: z.string(),
})

export const exportReportSchema = z.looseObject({
  format: z.literal(trajectoryReleaseFormat),
  trajectory_format: z.literal(trajectoryFormat),
  dataset: z.string(),
  enable_thinking: z.boolean(),
  think: z.looseObject({
    source: z.enum(thinkSourceKinds),
    mock: z.boolean(),
    max_think_tokens: z.number().int(),
    over_limit: z.enum(thinkOverLimitPolicies),
  }),
  splits: z.record(z.enum(splitNames), splitSummarySchema),
  release: z.looseObject({ artifacts_sha256: z.record(z.string(), z.string()) }),
})

export type SplitSummary = z.output<typeof splitSummarySchema>
export type ExportReportCore = z.output<typeof exportReportSchema>
