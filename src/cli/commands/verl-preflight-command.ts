/**
 * @module cli: `releaseops verl preflight --run <dir> --patch-list <file> …`: the checks on the training
 * machine; prints the launch command only when all pass (exit 0), else exit 1 with the failed checks.
 */
import { type CommandUnknownOpts, InvalidArgumentError } from '@commander-js/extra-typings'
import { runVerlPreflight } from '../../train/verl/run-verl-preflight.js'
import { parsePositiveInteger } from '../parse-options.js'

function parseGib(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative number of GiB')
  return parsed
}

export function registerVerlPreflightCommand(verl: CommandUnknownOpts): void {
  verl
    .command('preflight')
    .description(
      'On the training machine: check VeRL version and patches, host, release, tools, token budget and checkpoint; print the launch command only if all pass.',
    )
    .requiredOption('--run <dir>', 'the run directory written by `verl config`')
    .option('--patch-list <file>', 'the declared VeRL patches (releaseops-verl-patches-v1, with file hashes); none when absent')
    .option('--verl-root <dir>', 'the installed verl package directory (default: where the interpreter imports it from)')
    .option('--nvidia-smi <path>', 'nvidia-smi executable', 'nvidia-smi')
    .option('--python <path>', "the training interpreter (default: the config's)")
    .option('--gpu-name <text>', 'required GPU model (substring, e.g. H200)')
    .option('--min-gpu-memory-gib <n>', 'memory each GPU must have', parseGib, 24)
    .option('--min-driver <version>', 'oldest acceptable NVIDIA driver')
    .option('--cuda <version>', "torch's CUDA version must start with this (e.g. 13.0)")
    .option('--min-vllm <version>', 'RLOO: oldest acceptable vLLM')
    .option('--sft-release <dir>', 'RLOO: the trajectory release the reference was fine-tuned on (thinking flag must match)')
    .option('--gate-report <file>', 'RLOO: the passed `releaseops gate rollout` report of the reference on this release')
    .option('--gate-split <name>', 'the release split the gate must cover', 'val')
    .option('--gate-min-denominator <n>', 'fewest scored gate episodes (default: the split, at most 200)', parsePositiveInteger)
    .action(async (flags) => {
      const manifest = await runVerlPreflight({
        runDirectory: flags.run,
        ...(flags.patchList ? { patchList: flags.patchList } : {}),
        ...(flags.verlRoot ? { verlRoot: flags.verlRoot } : {}),
        ...(flags.nvidiaSmi ? { nvidiaSmi: flags.nvidiaSmi } : {}),
        ...(flags.python ? { python: flags.python } : {}),
        ...(flags.sftRelease ? { sftRelease: flags.sftRelease } : {}),
        ...(flags.gateReport ? { gateReport: flags.gateReport } : {}),
        ...(flags.gateSplit ? { gateSplit: flags.gateSplit } : {}),
        ...(flags.gateMinDenominator !== undefined ? { gateMinDenominator: flags.gateMinDenominator } : {}),
        host: {
          minGpuMemoryGib: flags.minGpuMemoryGib,
          ...(flags.gpuName ? { gpuName: flags.gpuName } : {}),
          ...(flags.minDriver ? { minDriver: flags.minDriver } : {}),
          ...(flags.cuda ? { cuda: flags.cuda } : {}),
          ...(flags.minVllm ? { minVllm: flags.minVllm } : {}),
        },
      })
      for (const check of manifest.checks)
        process.stderr.write(`${check.passed ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}\n`)
      if (manifest.command) process.stdout.write(`${manifest.command}\n`)
      else {
        process.stderr.write(
          `preflight failed (${manifest.failed.join(', ')}); no launch command. See ${flags.run}/launch_manifest.json\n`,
        )
        process.exitCode = 1
      }
    })
}
