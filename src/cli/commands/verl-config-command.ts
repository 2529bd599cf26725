/**
 * @module cli: `releaseops verl config --kind sft|rloo …`: a self-contained VeRL run directory, for a
 * grading release or (`--env releaseops-arena…`) multi-turn RL of the Arena on its env server.
 */
import { isAbsolute, resolve } from 'node:path'
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { verlModelFamilies } from '../../train/verl/model-family.js'
import { presetSettings, settingsSummary, verlPresets } from '../../train/verl/verl-presets.js'
import { verlRunKinds } from '../../train/verl/verl-run-settings.js'
import { arenaEnvId, runArenaVerlConfig } from '../../train/verl/write-arena-config.js'
import { runVerlConfig } from '../../train/verl/write-verl-config.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import type { OptsOf } from '../opts-of.js'
import { parseJsonObject, parsePositiveInteger, pickDefined } from '../parse-options.js'
import { printSummary } from './release-options.js'

function declareVerlConfig(verl: CommandUnknownOpts) {
  const command = verl
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
  return addOutDirOption(command, {
    description: 'the run directory (must not exist or be empty)',
    aliases: ['--output-dir'],
    required: true,
  })
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
}

type ConfigFlags = OptsOf<ReturnType<typeof declareVerlConfig>>

export function registerVerlConfigCommand(verl: CommandUnknownOpts): void {
  declareVerlConfig(verl).action(async (flags) => {
    checkTarget(flags)
    const preset = presetSettings({
      preset: flags.preset,
      kind: flags.kind,
      arena: flags.env === arenaEnvId,
      given: givenSettings(flags),
    })
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
    if (flags.env === arenaEnvId) await writeArenaRun(flags, settings, summarize)
    else await writeGradingRun(flags, settings, summarize)
  })
}

/** `--root` must be absolute and is for grading runs; `--env` names the Arena or nothing. */
function checkTarget(flags: ConfigFlags): void {
  if (flags.root !== undefined && !isAbsolute(flags.root))
    throw new InvalidInputError({
      code: 'invalid_option',
      path: '--root',
      message: `--root is the run directory's absolute path on the training machine, not ${flags.root}.`,
      issues: [],
    })
  if (flags.env !== undefined && flags.env !== arenaEnvId)
    throw new InvalidInputError({
      code: 'unknown_env',
      path: '--env',
      message: `VeRL runs are written for the grading task (--release) or ${arenaEnvId}, not ${flags.env}.`,
      issues: [],
    })
  if (flags.env === arenaEnvId && flags.root !== undefined)
    throw new InvalidInputError({
      code: 'invalid_option',
      path: '--root',
      message: `--root rewrites a grading run's paths; an ${arenaEnvId} run directory is written where it runs.`,
      issues: [],
    })
}

/** The settings the flags give, under their `verl_config.json` names (`--settings` first, flags over it). */
function givenSettings(flags: ConfigFlags): Record<string, unknown> {
  return {
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
}

type Summarize = (chosen: Record<string, unknown>, root: string) => void

async function writeArenaRun(flags: ConfigFlags, settings: never, summarize: Summarize): Promise<void> {
  const arena = await runArenaVerlConfig({ settings, outputDir: flags.outDir, ...(flags.envUrl ? { envUrl: flags.envUrl } : {}) })
  summarize(arena.settings, resolve(flags.outDir))
  printSummary({
    run: flags.outDir,
    kind: arena.kind,
    env: `${arena.env_id} at ${arena.env_url}`,
    rows: `${arena.rows.train.rows} train, ${arena.rows.val.rows} val`,
    model_family: `${arena.model_family} (${arena.model_family_source}) → ${arena.tool_parser}`,
    next: 'releaseops verl preflight --run <dir> (on the training machine, with the env server up)',
  })
}

/** The task files a grading run needs, or `missing_option` naming every one absent. */
function gradingTask(flags: ConfigFlags) {
  const { release, registry, corpus } = flags
  if (!release || !registry || !corpus || !(flags.gradingConfig || flags.gradingManifest)) {
    const missing = [
      ...(['release', 'registry', 'corpus'] as const).filter((key) => !flags[key]).map((key) => `--${key}`),
      ...(flags.gradingConfig || flags.gradingManifest ? [] : ['--grading-config']),
    ]
    throw new InvalidInputError({
      code: 'missing_option',
      path: missing[0] as string,
      message: `A grading-task run needs --release, --registry, --corpus and --grading-config (or --grading-manifest) (missing: ${missing.join(', ')}).`,
      issues: [],
    })
  }
  return {
    release,
    task: {
      registry,
      corpus,
      ...pickDefined({ gradingManifest: flags.gradingManifest, gradingConfig: flags.gradingConfig }),
      ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
    },
  }
}

async function writeGradingRun(flags: ConfigFlags, settings: never, summarize: Summarize): Promise<void> {
  const { release, task } = gradingTask(flags)
  const config = await runVerlConfig({
    release,
    outputDir: flags.outDir,
    ...(flags.root ? { root: flags.root } : {}),
    task,
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
}
