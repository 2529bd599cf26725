/**
 * @module cli: `releaseops verl config|preflight`: the VeRL launch path (a run directory, then the checks
 * on the training machine that gate its launch).
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { registerVerlConfigCommand } from './verl-config-command.js'
import { registerVerlPreflightCommand } from './verl-preflight-command.js'

export function registerVerlCommand(program: CommandUnknownOpts): void {
  const verl = program.command('verl').description('VeRL launch path: run configs and the preflight that gates a launch.')
  for (const register of [registerVerlConfigCommand, registerVerlPreflightCommand]) register(verl)
}
