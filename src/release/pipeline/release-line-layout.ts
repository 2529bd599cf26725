/** @module release/pipeline: where the release line writes each stage's output (the runbook's layout). */
import { join } from 'node:path'

export function releaseLineLayout(out: string, dataset: string) {
  const run = join(out, 'run')
  return {
    run,
    processed: join(run, 'processed', dataset, 'all.json'),
    canonicalDir: join(run, 'canonical'),
    canonical: join(run, 'canonical', dataset),
    rawAudit: join(run, 'audits', `${dataset}.prompt.raw.json`),
    audit: join(run, 'audits', `${dataset}.prompt.json`),
    sftRelease: join(run, 'releases', 'sft-legacy', dataset),
    sftValidation: join(run, 'releases', 'sft-legacy', `${dataset}.validation.json`),
    report: join(out, 'pipeline_report.json'),
  }
}

export type ReleaseLineLayout = ReturnType<typeof releaseLineLayout>
