/**
 * @module cli: `releaseops release mixture build --family sft|rl-cascade|trajectory --input name=dir …
 * --grading-manifest m.json`: several datasets' validated releases into one deterministic VeRL input.
 */
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { samplingPolicies } from '../../release/mixtures/mixture-plan.js'
import { mixtureFamilies } from '../../release/mixtures/mixture-report.js'
import { runMixtureBuild } from '../../release/mixtures/run-mixture-build.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import { collect, printSummary } from './release-options.js'

export function registerReleaseMixtureCommand(release: CommandUnknownOpts): void {
  const mixture = release.command('mixture').description('Mix validated releases of several datasets into one VeRL input.')
  const build = mixture
    .command('build')
    .description(
      'Build a mixture (sft: legacy stage pairs; rl-cascade: one native-tool stage1 episode per source; trajectory: trajectory SFT rows).',
    )
    .addOption(new Option('--family <family>', 'what is mixed').choices(mixtureFamilies).makeOptionMandatory())
    .requiredOption('--input <dataset=dir>', 'a published release of one dataset; repeatable', collect, [])
    .requiredOption('--grading-manifest <file>', "grading manifest; each dataset's grading file is verified against its sha256")
    .requiredOption('--registry <file>', 'leaf registry JSON shared by every dataset')
    .requiredOption('--corpus <file>', 'category corpus JSON shared by every dataset')
    .option('--task-config <file>', 'task config JSON (default: the four native metadata fields)')
    .option('--metadata-fields <fields...>', 'prompt metadata fields, overriding the task config')
  addOutDirOption(build, {
    description: 'mixture release directory (must not exist or be empty)',
    aliases: ['--output-dir'],
    required: true,
  })
    .addOption(
      new Option('--sampling <policy>', 'train-split dataset weights (val/test always keep every source once)')
        .choices(samplingPolicies)
        .default('passthrough'),
    )
    .option('--failed-audit <file>', 'where to write the failed-audit JSON (default: <out-dir>.failed.json)')
    .action(async (flags) => {
      const report = await runMixtureBuild({
        family: flags.family,
        inputs: flags.input,
        gradingManifest: flags.gradingManifest,
        registry: flags.registry,
        corpus: flags.corpus,
        ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
        ...(flags.metadataFields ? { metadataFields: flags.metadataFields } : {}),
        outputDir: flags.outDir,
        sampling: flags.sampling,
        ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
      })
      printSummary({
        output_dir: flags.outDir,
        family: report.family,
        datasets: report.datasets,
        sampling: report.sampling,
        splits: Object.fromEntries(
          Object.entries(report.splits).map(([split, details]) => [
            split,
            { rows: details.rows, source_counts: details.source_counts },
          ]),
        ),
        valid: report.validation.valid,
      })
    })
}
