/** @module release/pipeline: the release line's report, and its audit report files. */
import { writeFileSync } from 'node:fs'
import { basename, relative } from 'node:path'
import { writeFileAtomic } from '../../io/atomic-file.js'
import { sha256File, sha256Hex } from '../../io/sha256.js'
import type { BundleAuditReport } from '../audit/prompt-conflict-audit.js'
import { stableJson } from '../audit/run-prompt-audit.js'
import type { LabelAccounting } from '../canonical/unresolved-labels.js'
import type { SftExportReport } from '../sft/export-legacy-sft.js'
import type { releaseLineLayout } from './release-line-layout.js'
import type { ReleaseLineOptions } from './release-line-options.js'

export function writeAuditReport(path: string, report: unknown): void {
  writeFileAtomic({ path, write: (temporary) => writeFileSync(temporary, `${stableJson(report)}\n`) })
}

export function lineReport(parts: {
  options: ReleaseLineOptions
  layout: ReturnType<typeof releaseLineLayout>
  processed: { data_rows: number; records: number; exact_duplicates: { count: number }; sha256: string }
  canonicalSha256: string
  built: { status_counts: Record<string, number>; labels: LabelAccounting }
  rawAudit: BundleAuditReport
  finalAudit: BundleAuditReport
  quarantine: { quarantined_records: number } | undefined
  split: { sizes: Record<string, number>; seed: number }
  exported: SftExportReport
}): Record<string, unknown> {
  const { layout } = parts
  const artifact = (path: string) => relative(parts.options.out, path)
  return {
    format: 'release-line-report-v1',
    dataset: parts.options.dataset,
    input: { file: basename(parts.options.input), sha256: sha256File(parts.options.input) },
    stages: {
      preprocess: {
        rows: parts.processed.data_rows,
        records: parts.processed.records,
        exact_duplicates: parts.processed.exact_duplicates.count,
        output: artifact(layout.processed),
      },
      canonical_build: {
        status_counts: parts.built.status_counts,
        labels: parts.built.labels,
        output: artifact(layout.canonical),
      },
      // `status` stays as it was (format v1); `outcome` and `note` say what a "failed" here means.
      audit_before_split: {
        status: parts.rawAudit.status,
        outcome: parts.rawAudit.status === 'failed' ? 'conflicts_found_before_quarantine' : 'no_conflicts',
        ...(parts.rawAudit.status === 'failed'
          ? {
              note: `Expected before quarantine: this audit runs on every canonical record, conflicts included; the ${parts.quarantine?.quarantined_records ?? 0} quarantined record(s) leave before the split, and the release's own audit is stages.audit (${parts.finalAudit.status}).`,
            }
          : {}),
        conflict_keys: parts.rawAudit.conflict_keys,
        report: artifact(layout.rawAudit),
      },
      quarantine: { quarantined_records: parts.quarantine?.quarantined_records ?? 0 },
      split: { seed: parts.split.seed, sizes: parts.split.sizes },
      audit: { status: parts.finalAudit.status, conflict_keys: parts.finalAudit.conflict_keys, report: artifact(layout.audit) },
      sft_export: {
        release: artifact(layout.sftRelease),
        splits: parts.exported.splits,
        label_gap_gate: parts.exported.label_gap_gate.status,
      },
    },
    sha256: {
      processed: parts.processed.sha256,
      canonical: parts.canonicalSha256,
      audit: sha256Hex(stableJson(parts.finalAudit)),
    },
  }
}
