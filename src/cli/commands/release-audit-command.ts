/** @module cli: `releaseops release audit prompt-conflicts`: exits 1 unless passed with zero conflict keys. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { runPromptAudit } from '../../release/audit/run-prompt-audit.js'
import { collect, printSummary } from './release-options.js'

export function registerReleaseAuditCommand(release: CommandUnknownOpts): void {
  const audit = release.command('audit').description('Audits of canonical datasets.')
  audit
    .command('prompt-conflicts')
    .description(
      'Same visible prompt key (normalised field + table name), different target? Hash-only report; exit 1 on conflicts.',
    )
    .option('--bundle', 'audit several datasets (DATASET=PATH entries) into one bundle report')
    .requiredOption('--canonical <path>', 'canonical all.json (DATASET=PATH with --bundle); repeatable', collect, [])
    .requiredOption(
      '--classification-standard <path>',
      'classification standard JSON (DATASET=PATH with --bundle); repeatable',
      collect,
      [],
    )
    .requiredOption('--grading-standard <path>', 'grading standard JSON (DATASET=PATH with --bundle); repeatable', collect, [])
    .option('--dataset <name>', 'dataset name of a single audit')
    .option('--split <name>', 'train, val, test or all', 'all')
    .option('--level-field <field>', 'the level label field', 'data_level')
    .requiredOption('--report <file>', 'report JSON to write')
    .option('--overwrite', 'replace an existing report')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--config-file <file>', 'datasets config (for --formal)')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON')
    .action(async (flags) => {
      const { report, passed } = await runPromptAudit({
        canonical: flags.canonical,
        classificationStandard: flags.classificationStandard,
        gradingStandard: flags.gradingStandard,
        split: flags.split,
        levelField: flags.levelField,
        report: flags.report,
        ...(flags.bundle ? { bundle: true } : {}),
        ...(flags.dataset ? { dataset: flags.dataset } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
        ...(flags.formal ? { formal: true } : {}),
        ...(flags.configFile ? { configFile: flags.configFile } : {}),
        ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
      })
      printSummary({
        status: report.status,
        records_audited: report.records_audited,
        records_checked: report.records_checked,
        conflict_keys: report.conflict_keys,
        cross_split_keys: report.cross_split_keys,
        report: flags.report,
      })
      if (!passed) process.exitCode = 1
    })
}
