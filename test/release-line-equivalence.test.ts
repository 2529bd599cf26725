/**
 * The in-process line (records passed between stages in memory, grouped for the audit as they are made,
 * files written by worker threads) writes exactly what the stage commands write when run one after another
 * in runbook order, each reading the previous stage's files.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runPromptAudit } from '../src/release/audit/run-prompt-audit.js'
import { runCanonicalBuild } from '../src/release/canonical/run-canonical-build.js'
import { runCanonicalSplit } from '../src/release/canonical/run-canonical-split.js'
import { runQuarantineConflicts } from '../src/release/canonical/run-quarantine-conflicts.js'
import { releaseLineLayout } from '../src/release/pipeline/release-line-layout.js'
import { runReleaseLine } from '../src/release/pipeline/run-release-line.js'
import { runPreprocess } from '../src/release/preprocess/run-preprocess.js'
import { runSftExport } from '../src/release/sft/run-sft-export.js'
import { type DemoFixture, demoFixture, releaseLineFiles, temporaryDirectory, treeHashes } from './support/release-fixture.js'

let fixture: DemoFixture
let line: ReturnType<typeof releaseLineLayout>
let stages: string
let audits: { raw: unknown; final: unknown }

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>

beforeAll(async () => {
  fixture = await demoFixture({ rows: 700 })
  const { classificationStandard: _classification, gradingStandard: _grading, ...files } = releaseLineFiles(fixture)
  const out = join(temporaryDirectory('line-equivalence'), 'out')
  line = releaseLineLayout(out, fixture.dataset)
  await runReleaseLine({ ...releaseLineFiles(fixture), out, stripTrailingCodes: true, allowUnresolved: true })

  stages = temporaryDirectory('stages')
  const processed = join(stages, 'processed.json')
  const canonicalDir = join(stages, 'canonical')
  const canonical = join(canonicalDir, fixture.dataset, 'all.json')
  const audit = (report: string) =>
    runPromptAudit({
      canonical: [canonical],
      classificationStandard: [fixture.path('classification')],
      gradingStandard: [fixture.path('grading')],
      dataset: fixture.dataset,
      report: join(stages, report),
    })
  await runPreprocess({ ...files, output: processed, stripTrailingCodes: true })
  await runCanonicalBuild({ ...files, canonicalDir, processed, allowUnresolved: true })
  const raw = await audit('raw-audit.json')
  expect(raw.passed).toBe(false)
  await runQuarantineConflicts({ canonicalDir, dataset: fixture.dataset })
  await runCanonicalSplit({ canonicalDir, dataset: fixture.dataset, splitType: 'random', seed: 42 })
  const final = await audit('audit.json')
  expect(final.passed).toBe(true)
  await runSftExport({ ...files, canonical, outputDir: join(stages, 'sft') })
  audits = { raw: raw.report, final: final.report }
})

describe('the in-process line and the stage commands', () => {
  it('write the same processed, canonical and SFT files', () => {
    expect(readFileSync(line.processed).equals(readFileSync(join(stages, 'processed.json')))).toBe(true)
    expect(treeHashes(line.canonical)).toEqual(treeHashes(join(stages, 'canonical', fixture.dataset)))
    expect(treeHashes(line.sftRelease)).toEqual(treeHashes(join(stages, 'sft')))
  })

  it('reach the same audit verdicts on the same prompt keys', () => {
    const datasetReport = (path: string) => (json(path).datasets as Record<string, unknown>)[fixture.dataset]
    expect(datasetReport(line.rawAudit)).toEqual(audits.raw)
    expect(datasetReport(line.audit)).toEqual(audits.final)
  })
})
