/**
 * One measured case of `bench/rl-release.bench.ts`, run in its own process (`node --import tsx`): prints
 * seconds, CPU seconds, peak RSS and the case's item count as one JSON line.
 */
import { join } from 'node:path'
import { runMixtureBuild } from '../../src/release/mixtures/run-mixture-build.js'
import { runValidateCascade } from '../../src/release/mixtures/validate-cascade.js'
import { runRlExport } from '../../src/release/rl/run-rl-export.js'
import { gradingToolSchemas } from '../../src/train/verl/task-bundle.js'
import { checkTokenBudget } from '../../src/train/verl/token-budget.js'
import { verlRunSettingsSchema } from '../../src/train/verl/verl-run-settings.js'
import type { GateFixture } from '../../test/gate-fixture.js'

interface Files {
  registry: string
  corpus: string
  taskConfig: string
  gradingManifest: string
}

const [name, optionsJson] = process.argv.slice(2)
const options = JSON.parse(optionsJson as string) as {
  files: Files
  canonical: string
  work: string
  rl: string[]
  mixture: string
  episodes?: number
}

async function run(): Promise<number> {
  switch (name) {
    case 'rl-export': {
      const report = await runRlExport({
        dataset: 'steel_demo',
        ...options.files,
        canonical: options.canonical,
        outputDir: join(options.work, `rl-${process.pid}`),
      })
      return Object.values(report.splits).reduce((sum, split) => sum + split.rows, 0)
    }
    case 'mixture-rl-cascade': {
      const report = await runMixtureBuild({
        family: 'rl-cascade',
        inputs: options.rl,
        ...options.files,
        outputDir: join(options.work, `mix-${process.pid}`),
      })
      return Object.values(report.splits).reduce((sum, split) => sum + split.rows, 0)
    }
    case 'validate-cascade': {
      const report = await runValidateCascade({ ...options.files, datasetDir: options.mixture })
      if (!report.valid) throw new Error('the bench mixture is invalid')
      return Object.values(report.splits).reduce((sum, split) => sum + split.rows, 0)
    }
    case 'token-budget': {
      const settings = verlRunSettingsSchema.parse({ kind: 'rloo', model_path: '/unused' })
      const check = await checkTokenBudget({
        release: options.mixture,
        settings,
        tools: gradingToolSchemas(),
        metadataFields: ['field_name', 'table_name', 'field_description', 'table_description'],
      })
      const splits = (check.facts as { splits: Record<string, { rows: number }> }).splits
      return Object.values(splits).reduce((sum, split) => sum + split.rows, 0)
    }
    case 'gate': {
      const { runGate, scriptedEndpoint } = await import('../../test/gate-fixture.js')
      const { releaseRolloutSource } = await import('../../src/release/rl/release-rollout-source.js')
      const { loadGradingFromManifest, loadTaskFiles } = await import('../../src/release/inputs/load-task-files.js')
      const source = await releaseRolloutSource({
        directory: options.mixture,
        split: 'train',
        ...options.files,
        limit: options.episodes ?? 1000,
      })
      const task = loadTaskFiles({
        ...options.files,
        grading: loadGradingFromManifest({ manifest: options.files.gradingManifest, dataset: 'steel_demo' }),
      }).task
      const keys = source.rows.map((row) => row.key).sort()
      const fixture: GateFixture = { root: options.work, release: options.mixture, files: options.files, task, source, keys }
      const server = await scriptedEndpoint({ fixture, correct: new Set(keys.filter((_, index) => index % 7 === 0)) })
      try {
        const { report } = await runGate({ fixture, baseUrl: server.url, concurrency: 8, samples: 1 })
        if (report.status === 'infrastructure_error') throw new Error('gate bench: infrastructure error')
        return report.denominator
      } finally {
        await server.close()
      }
    }
    default:
      throw new Error(`unknown case ${name}`)
  }
}

const started = performance.now()
const items = await run()
const seconds = (performance.now() - started) / 1000
const usage = process.resourceUsage()
process.stdout.write(
  `${JSON.stringify({ seconds, cpu_seconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peak_rss_mb: Math.round(usage.maxRSS / 1024), items })}\n`,
)
