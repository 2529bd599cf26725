/**
 * @module cli: `releaseops release …`: the data-grading release line, one subcommand per stage (demo-data,
 * preprocess, canonical build/split/quarantine-conflicts, audit prompt-conflicts, sft export/validate),
 * `pipeline`, which runs them all, and `init`, which proposes a new data owner's mapping and configs.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { registerReleaseAuditCommand } from './release-audit-command.js'
import { registerReleaseCanonicalCommand } from './release-canonical-command.js'
import { registerReleaseDemoCommands } from './release-demo-command.js'
import { registerReleaseInitCommand } from './release-init-command.js'
import { registerReleaseMixtureCommand } from './release-mixture-command.js'
import { registerReleasePreprocessCommand } from './release-preprocess-command.js'
import { registerReleaseRlCommand } from './release-rl-command.js'
import { registerReleaseSftCommand } from './release-sft-command.js'
import { registerReleaseStandardsCommand } from './release-standards-command.js'
import { registerReleaseTrajectoriesCommand } from './release-trajectories-command.js'

export function registerReleaseCommand(program: CommandUnknownOpts): void {
  const release = program
    .command('release')
    .description('Data-grading release line: xlsx → processed → canonical → splits → audit → SFT release.')
  registerReleaseDemoCommands(release)
  registerReleasePreprocessCommand(release)
  registerReleaseCanonicalCommand(release)
  registerReleaseAuditCommand(release)
  registerReleaseSftCommand(release)
  registerReleaseTrajectoriesCommand(release)
  registerReleaseRlCommand(release)
  registerReleaseMixtureCommand(release)
  registerReleaseStandardsCommand(release)
  registerReleaseInitCommand(release)
}
