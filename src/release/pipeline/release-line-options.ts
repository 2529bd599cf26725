/** @module release/pipeline: what the release line takes and returns. */
import type { TaskOptions } from '../planning/task-options.js'
import type { CsvDelimiter } from '../preprocess/detect-delimiter.js'

export interface ReleaseLineOptions extends TaskOptions {
  input: string
  /** A CSV input's encoding and separator (default: detected). */
  encoding?: string
  delimiter?: CsvDelimiter
  mapping: string
  configFile: string
  classificationStandard: string
  gradingStandard: string
  out: string
  seed?: number
  stripTrailingCodes?: boolean
  /** Publish even when labelled records resolve to no category (see `checkLostLabels`). */
  allowUnresolved?: boolean
  formal?: boolean
  /** When the audit finds conflicts: quarantine them and go on (default), or stop. */
  quarantine?: boolean
  onStage?: (stage: string, seconds: number, rows: number) => void
}

export interface ReleaseLineResult {
  report: Record<string, unknown>
  timings: { stage: string; seconds: number; rows: number }[]
}
