/**
 * @module cli: `releaseops verl config --kind sft|rloo …` (a self-contained VeRL run directory) and
 * `releaseops verl preflight --run <dir> --patch-list <file> …` (the checks on the training machine;
 * prints the launch command only when all pass: exit 0, else 1 with the failed checks).
 */
import { isAbsolute, resolve } from 'node:path'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { type VerlModelFamily, verlModelFamilies } from '../../train/verl/model-family.js'
import { runVerlPreflight } from '../../train/verl/run-verl-preflight.js'
import { presetSettings, settingsSummary, type VerlPreset, verlPresets } from '../../train/verl/verl-presets.js'
import { type VerlRunKind, verlRunKinds } from '../../train/verl/verl-run-settings.js'
import { arenaEnvId, runArenaVerlConfig } from '../../train/verl/write-arena-config.js'
import { runVerlConfig } from '../../train/verl/write-verl-config.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import { parseJsonObject, parsePositiveInteger, pickDefined } from '../parse-options.js'
import { printSummary } from './release-options.js'

interface ConfigFlags {
  kind: VerlRunKind
  env?: string
  envUrl?: string
  release?: string
  modelPath: string
  outDir: string
  registry?: string
  corpus?: string
  taskConfig?: string
  gradingManifest?: string
  gradingConfig?: string
  enableThinking: boolean
  modelFamily?: VerlModelFamily
  maxTokenLenPerGpu?: number
  python?: string
  rolloutN?: number
  maxPromptLength?: number
  maxResponseLength?: number
  maxLength?: number
  steps?: number
  gpus?: number
  settings?: Record<string, unknown>
  preset: VerlPreset
  root?: string
}

interface PreflightFlags {
  run: string
  patchList?: string
  verlRoot?: string
  nvidiaSmi?: string
  python?: string
  gpuName?: string
  minGpuMemoryGib: number
  minDriver?: string
  cuda?: string
  minVllm?: string
  sftRelease?: string
  gateReport?: string
  gateSplit?: string
  gateMinDenominator?: number
}

function parseGib(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative number of GiB')
  return parsed
}

export function registerVerlCommand(program: Command): void {
  const verl = program.command('verl').description('VeRL launch path: run configs and the preflight that gates a launch.')
  const configCommand = verl
    .command('config')
    .description('Write a VeRL run directory (task bundle, function tools, reward, agent loop, Hydra overrides) for a release.')
    .addOption(
      new Option('--kind <kind>', 'sft (trajectory release) or rloo (RL release / rl-cascade mixture)')
        .choices(verlRunKinds)
        .makeOptionMandatory(),
    )
    .option('--env <id>', `${arenaEnvId}: multi-turn RL of the Arena on its env server (no release); default: the grading task`)
    .option(
      '--env-url <url>',
      `${arenaEnvId}: the env server's OpenEnv WebSocket endpoint (ws://127.0.0.1:8000/envs/${arenaEnvId}/ws)`,
    )
    .option('--release <dir>', 'grading task: the release the run trains on')
    .requiredOption('--model-path <dir>', 'the checkpoint to train (see kl_reference for RLOO)')
  addOutDirOption(configCommand, {
    description: 'the run directory (must not exist or be empty)',
    aliases: ['--output-dir'],
    required: true,
  })
  configCommand
    .option('--registry <file>', 'grading task: leaf registry JSON the release was built from')
    .option('--corpus <file>', 'grading task: category corpus JSON')
    .option('--task-config <file>', 'task config JSON')
    .option('--grading-config <file>', 'grading task: grading standard JSON (a single-dataset release)')
    .option('--grading-manifest <file>', "grading task: grading manifest; each dataset's standard is verified by sha256")
    .option('--enable-thinking', 'render with enable_thinking=true (must match the release)', false)
    .addOption(
      new Option('--model-family <family>', 'only when the checkpoint ships no known template (else read from it)').choices(
        verlModelFamilies,
      ),
    )
    .option('--max-token-len-per-gpu <n>', 'SFT dynamic-batch tokens per GPU (≥ --max-length; default: it)', parsePositiveInteger)
    .option('--python <path>', 'the training interpreter')
    .option('--rollout-n <n>', 'RLOO samples per prompt (≥ 2)', parsePositiveInteger)
    .option('--max-prompt-length <n>', 'RLOO prompt tokens', parsePositiveInteger)
    .option('--max-response-length <n>', 'RLOO response tokens', parsePositiveInteger)
    .option('--max-length <n>', 'SFT conversation tokens', parsePositiveInteger)
    .option('--steps <n>', 'total training steps', parsePositiveInteger)
    .option('--gpus <n>', 'GPUs per node', parsePositiveInteger)
    .option('--settings <json>', 'further settings as a JSON object (keys of verl_config.json settings)', parseJsonObject)
    .addOption(
      new Option('--preset <name>', 'full: sized for one ≥ 80 GiB GPU; smoke: the tiny run CI launches')
        .choices(verlPresets)
        .default('full'),
    )
    .option('--root <dir>', "grading task: the run directory's absolute path on the training machine (default: --out-dir)")
    .action(async (flags: ConfigFlags) => {
      if (flags.root !== undefined && !isAbsolute(flags.root))
        throw new InvalidInputError({
          code: 'invalid_option',
          path: '--root',
          message: `--root is the run directory's absolute path on the training machine, not ${flags.root}.`,
          issues: [],
        })
      const given = {
        ...(flags.settings ?? {}),
        ...(flags.python ? { python: flags.python } : {}),
        ...(flags.modelFamily ? { model_family: flags.modelFamily } : {}),
        ...(flags.maxTokenLenPerGpu !== undefined ? { max_token_len_per_gpu: flags.maxTokenLenPerGpu } : {}),
        ...(flags.rolloutN !== undefined ? { rollout_n: flags.rolloutN } : {}),
        ...(flags.maxPromptLength !== undefined ? { max_prompt_length: flags.maxPromptLength } : {}),
        ...(flags.maxResponseLength !== undefined ? { max_response_length: flags.maxResponseLength } : {}),
        ...(flags.maxLength !== undefined ? { max_length: flags.maxLength } : {}),
        ...(flags.steps !== undefined ? { total_training_steps: flags.steps } : {}),
        ...(flags.gpus !== undefined ? { gpus_per_node: flags.gpus } : {}),
      }
      const preset = presetSettings({ preset: flags.preset, kind: flags.kind, arena: flags.env === arenaEnvId, given })
      const settings = {
        ...preset.settings,
        kind: flags.kind,
        model_path: flags.modelPath,
        enable_thinking: flags.enableThinking,
      } as never
      const summarize = (chosen: Record<string, unknown>, root: string) => {
        const lines = settingsSummary({ preset: flags.preset, settings: chosen, choices: preset.choices, root })
        process.stderr.write(`${lines.join('\n')}\n`)
      }
      if (flags.env !== undefined && flags.env !== arenaEnvId)
        throw new InvalidInputError({
          code: 'unknown_env',
          path: '--env',
          message: `VeRL runs are written for the grading task (--release) or ${arenaEnvId}, not ${flags.env}.`,
          issues: [],
        })
      if (flags.env === arenaEnvId) {
        if (flags.root !== undefined)
          throw new InvalidInputError({
            code: 'invalid_option',
            path: '--root',
            message: `--root rewrites a grading run's paths; an ${arenaEnvId} run directory is written where it runs.`,
            issues: [],
          })
        const arena = await runArenaVerlConfig({
          settings,
          outputDir: flags.outDir,
          ...(flags.envUrl ? { envUrl: flags.envUrl } : {}),
        })
        summarize(arena.settings, resolve(flags.outDir))
        printSummary({
          run: flags.outDir,
          kind: arena.kind,
          env: `${arena.env_id} at ${arena.env_url}`,
          rows: `${arena.rows.train.rows} train, ${arena.rows.val.rows} val`,
          model_family: `${arena.model_family} (${arena.model_family_source}) → ${arena.tool_parser}`,
          next: 'releaseops verl preflight --run <dir> (on the training machine, with the env server up)',
        })
        return
      }
      const missing = [
        ...(['release', 'registry', 'corpus'] as const).filter((key) => !flags[key]).map((key) => `--${key}`),
        ...(flags.gradingConfig || flags.gradingManifest ? [] : ['--grading-config']),
      ]
      if (missing.length > 0)
        throw new InvalidInputError({
          code: 'missing_option',
          path: missing[0] as string,
          message: `A grading-task run needs --release, --registry, --corpus and --grading-config (or --grading-manifest) (missing: ${missing.join(', ')}).`,
          issues: [],
        })
      const config = await runVerlConfig({
        release: flags.release as string,
        outputDir: flags.outDir,
        ...(flags.root ? { root: flags.root } : {}),
        task: {
          registry: flags.registry as string,
          corpus: flags.corpus as string,
          ...pickDefined({ gradingManifest: flags.gradingManifest, gradingConfig: flags.gradingConfig }),
          ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
        },
        settings,
      })
      summarize(config.settings, config.run_root ?? resolve(flags.outDir))
      printSummary({
        run: flags.outDir,
        kind: config.kind,
        release: config.release.kind,
        datasets: config.release.datasets,
        enable_thinking: config.settings.enable_thinking,
        model_family: `${config.model_family} (${config.model_family_source}) → ${config.tool_parser}`,
        next: 'releaseops verl preflight --run <dir> (on the training machine)',
      })
    })
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
    .action(async (flags: PreflightFlags) => {
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
