/**
 * @module cli: `releaseops train verdict`: two probe reports of the same rows and seed (before and after
 * training, `python -m releaseops_train.probe`) → the paired verdict of `train/learning-verdict.ts`.
 * PASS when the chosen metric's 95% interval is above 0, its gain is not one tool's alone and the model
 * does not call less (its share of samples without a call did not rise beyond noise), else INCONCLUSIVE (exit 0 either way: the verdict is the answer, not a failure).
 */
import { readFile } from 'node:fs/promises'
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { Option } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import {
  describeGain,
  describeNoCall,
  learningMetrics,
  learningVerdict,
  type ProbeStats,
  probeReportSchema,
} from '../../train/learning-verdict.js'

const oneModelSchema = probeReportSchema.shape.models.shape.before

async function readProbe(path: string, label: 'before' | 'after'): Promise<ProbeStats> {
  const text = await readFile(path, 'utf8')
  const models = (JSON.parse(text) as { models?: Record<string, unknown> }).models ?? {}
  const parsed = oneModelSchema.safeParse(models[label] ?? Object.values(models)[0])
  if (!parsed.success) {
    throw new InvalidInputError({
      code: 'bad_probe_report',
      message: `${path}: not a probe report with per-sample results (${parsed.error.issues[0]?.message}).`,
      issues: [],
    })
  }
  return parsed.data
}

export function registerTrainVerdictCommand(train: CommandUnknownOpts): void {
  train
    .command('verdict')
    .description('Paired verdict of two probe reports (before/after training): PASS or INCONCLUSIVE.')
    .requiredOption('--before <file>', 'probe report of the model before training')
    .requiredOption('--after <file>', 'probe report of the trained model')
    .addOption(new Option('--metric <name>', 'the metric that decides').choices(learningMetrics).default('reward'))
    .option('--json', 'print the whole verdict as JSON')
    .action(async (options: { before: string; after: string; metric: (typeof learningMetrics)[number]; json?: boolean }) => {
      const before = await readProbe(options.before, 'before')
      const after = await readProbe(options.after, 'after')
      const verdict = learningVerdict(before.per_sample, after.per_sample)
      const decisive = verdict.metrics[options.metric]
      const word = decisive.passed ? 'PASS' : 'INCONCLUSIVE'
      if (options.json) process.stdout.write(`${JSON.stringify({ verdict: word, ...verdict }, null, 2)}\n`)
      else {
        for (const gain of Object.values(verdict.metrics)) process.stdout.write(`${describeGain(gain)}\n`)
        process.stdout.write(`${describeNoCall(verdict)}\n`)
        process.stdout.write(
          `verdict: ${word} (${options.metric}; ${verdict.rows} rows, ${verdict.pairs} paired samples, ${verdict.resamples} resamples)\n`,
        )
      }
    })
}
