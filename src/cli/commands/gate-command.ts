/**
 * @module cli: `releaseops gate rollout --release <dir> --split val --base-url <url> --model <name> …
 * --report gate.json`: a bounded native-tool rollout of a model over a release split with the same
 * grading env, chat format and agent loop as RL, gated on a nonzero-reward rate in [5%, 30%]. Also
 * `--env releaseops-v3 --split eval` for the Arena's datasets. Exit 0 passed, 1 failed, 3 infrastructure.
 */
import { writeFileSync } from 'node:fs'
import { type CommandUnknownOpts, InvalidArgumentError, Option } from '@commander-js/extra-typings'
import { defaultModelMode, modelModes } from '../../agent/chat-model.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { envRegistry } from '../../envs/index.js'
import { type GateRolloutOutcome, gateRollout } from '../../eval/gate/gate-rollout.js'
import { formalGateBounds, minimumGateEpisodes } from '../../eval/gate/rollout-gate-rule.js'
import { writeFileAtomic } from '../../io/atomic-file.js'
import { releaseRolloutSource } from '../../release/rl/release-rollout-source.js'
import type { OptsOf } from '../opts-of.js'
import { parseNonNegativeInteger, parseNumber, parsePositiveInteger, pickDefined } from '../parse-options.js'
import { createProgress } from '../progress.js'

function parseFraction(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new InvalidArgumentError('expected a number between 0 and 1')
  return parsed
}

function requireTaskFiles(flags: GateFlags): {
  registry: string
  corpus: string
  gradingManifest?: string
  gradingConfig?: string
} {
  const missing = (['registry', 'corpus'] as const).filter((key) => !flags[key])
  const grading = flags.gradingConfig || flags.gradingManifest ? [] : ['--grading-config (or --grading-manifest)']
  if (missing.length > 0 || grading.length > 0) {
    const list = [...missing.map((key) => `--${key}`), ...grading]
    throw new InvalidInputError({
      code: 'missing_option',
      path: list[0],
      message: `--release needs ${list.join(', ')} (the task the release was built from).`,
      issues: [],
    })
  }
  return {
    registry: flags.registry as string,
    corpus: flags.corpus as string,
    ...pickDefined({ gradingManifest: flags.gradingManifest, gradingConfig: flags.gradingConfig }),
  }
}

/** A release's grading split, loaded when the gate asks (after its own checks). */
function releaseLoader(flags: GateFlags, directory: string) {
  return () =>
    releaseRolloutSource({
      directory,
      split: flags.split,
      ...requireTaskFiles(flags),
      ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
    })
}

async function gateAction(flags: GateFlags): Promise<void> {
  const apiKey = process.env[flags.apiKeyEnv]
  const progress = createProgress('gate')
  let outcome: GateRolloutOutcome
  try {
    outcome = await gateRollout({
      ...(flags.release === undefined ? {} : { loadRelease: releaseLoader(flags, flags.release) }),
      envId: flags.env,
      envs: envRegistry,
      split: flags.split,
      model: {
        baseUrl: flags.baseUrl,
        model: flags.model,
        mode: flags.mode,
        enableThinking: flags.enableThinking,
        ...pickDefined({
          temperature: flags.temperature,
          topP: flags.topP,
          maxTokens: flags.maxTokens,
          seed: flags.seed,
          maxReplyBytes: flags.maxModelReply,
        }),
        ...(apiKey ? { apiKey } : {}),
        timeoutMs: flags.timeout * 1000,
        retries: flags.retries,
        maxConcurrency: flags.concurrency,
      },
      samples: flags.samples,
      concurrency: flags.concurrency,
      keepTrajectories: flags.episodes !== undefined,
      ...pickDefined({
        limit: flags.limit,
        toolSchemas: flags.toolSchemas,
        lower: flags.lower,
        upper: flags.upper,
        exploration: flags.exploration,
        minDenominator: flags.minDenominator,
      }),
      onEpisode: (done, total) => progress.update(done, total),
    })
  } finally {
    progress.stop()
  }
  const { result, bounds, minDenominator } = outcome
  const write = (path: string, text: string) =>
    writeFileAtomic({ path, overwrite: flags.overwrite ?? false, write: (temporary) => writeFileSync(temporary, text) })
  write(flags.report, `${JSON.stringify(result.report, null, 2)}\n`)
  if (flags.episodes)
    write(
      flags.episodes,
      result.episodes.map((episode) => JSON.stringify(episode)).join('\n') + (result.episodes.length > 0 ? '\n' : ''),
    )
  const { report } = result
  process.stdout.write(
    `${JSON.stringify({ status: report.status, passed: report.passed, numerator: report.numerator, denominator: report.denominator, rate: report.rate, ci95: report.ci95, bounds: [bounds.lower, bounds.upper], formal: report.rule.formal, min_denominator: minDenominator, mixed_share: report.per_prompt.mixed_share, reasons: report.reasons.map((reason) => reason.code), parse_failures: report.parse_failures.episodes, report: flags.report })}\n`,
  )
  if (report.status === 'infrastructure_error') {
    const fault = report.infrastructure.first_fault as { code?: string; message?: string } | undefined
    process.stderr.write(
      `gate: infrastructure error (${fault?.code ?? 'endpoint'}: ${fault?.message ?? 'episodes unscored'}); no rate is claimed\n`,
    )
    process.exitCode = 3
  } else if (!report.passed) process.exitCode = 1
}

export function registerGateCommand(program: CommandUnknownOpts): void {
  const gate = program.command('gate').description('Gates over model rollouts (before RL is allowed to start).')
  declareGateRollout(gate).action(gateAction)
}

function declareGateRollout(gate: CommandUnknownOpts) {
  return gate
    .command('rollout')
    .description(
      'Roll a model out over a release split with the RL env, chat format and loop; pass only for a nonzero-reward rate in [lower, upper].',
    )
    .option('--release <dir>', 'an RL release or rl-cascade mixture (grading task)')
    .option('--env <id>', 'the env (grading-v1 with --release; releaseops-v3 for the Arena eval datasets)', gradingV1Spec.id)
    .requiredOption('--split <name|file.jsonl>', 'release split (val) or, with --env, a dataset split or JSONL file')
    .option('--registry <file>', 'leaf registry the release was built from')
    .option('--corpus <file>', 'category corpus the release was built from')
    .option('--task-config <file>', 'task config the release was built from')
    .option('--grading-config <file>', 'grading standard JSON the release was built with (a single-dataset release)')
    .option('--grading-manifest <file>', "grading manifest (each dataset's standard verified by sha256)")
    .requiredOption('--base-url <url>', 'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1')
    .requiredOption('--model <name>', 'model name served by the endpoint')
    .addOption(
      new Option('--mode <mode>', 'wire mode: a chat format rendered and parsed here, or native')
        .choices(modelModes)
        .default(defaultModelMode),
    )
    .option('--enable-thinking', 'render with enable_thinking=true (must match the RL config)', false)
    .option(
      '--samples <n>',
      'rollouts per prompt (a formal gate needs n ≥ 2: RLOO learns from prompts whose samples differ)',
      parsePositiveInteger,
      2,
    )
    .option('--limit <n>', 'first n episodes of the split', parsePositiveInteger)
    .option('--concurrency <n>', 'episodes in flight at once', parsePositiveInteger, 8)
    .option(
      '--max-model-reply <bytes>',
      'largest endpoint reply read; a bigger one fails the gate (default 16 MiB)',
      parsePositiveInteger,
    )
    .option('--temperature <t>', 'sampling temperature', parseNumber)
    .option('--top-p <p>', 'nucleus sampling', parseNumber)
    .option('--max-tokens <n>', 'completion tokens per turn', parsePositiveInteger)
    .option('--seed <n>', 'sampling seed', parsePositiveInteger)
    .option('--timeout <seconds>', 'per request attempt', parseNumber, 120)
    .option('--retries <n>', 'retries after a failed attempt (429, 5xx, timeouts)', parseNonNegativeInteger, 4)
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .addOption(
      new Option('--tool-schemas <kind>', "tool schemas shown: VeRL's reduced ones (as RL rollouts) or the full ones").choices([
        'verl',
        'full',
      ] as const),
    )
    .option('--exploration', 'a non-formal run: allows --lower/--upper; verl preflight refuses its report')
    .option('--lower <rate>', `exploration only: lowest passing rate (formal: ${formalGateBounds.lower})`, parseFraction)
    .option('--upper <rate>', `exploration only: highest passing rate (formal: ${formalGateBounds.upper})`, parseFraction)
    .option(
      '--min-denominator <n>',
      `fewest scored episodes to pass on (default: the whole split, or ${minimumGateEpisodes} of it)`,
      parsePositiveInteger,
    )
    .requiredOption('--report <file>', 'gate report JSON')
    .option('--episodes <file>', 'per-episode JSONL (with trajectories)')
    .option('--overwrite', 'replace existing report/episodes files')
}

/** `gate rollout`'s flags, as commander infers them from the declarations. */
type GateFlags = OptsOf<ReturnType<typeof declareGateRollout>>
