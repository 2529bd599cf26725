/**
 * @module cli: `releaseops mock-llm --policy <p> --format <f>`: an OpenAI-compatible endpoint on loopback
 * whose "model" plays a registered policy, for demos and for testing an eval setup without a GPU. Prints
 * one JSON line `{"url", "model", "episodes"}` on stdout, then serves until interrupted.
 */
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { parseFaultRates, randomFaults } from '../../agent/scripted/fault-plan.js'
import { startMockOpenAiServer } from '../../agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../../agent/scripted/scripted-policy-model.js'
import { qwen3TokenCounter } from '../../agent/token-counter.js'
import { chatFormatIds } from '../../chat/format-registry.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { defaultEnvId, envRegistry, policyRegistry } from '../../envs/index.js'
import { loadDataset } from '../../eval/load-dataset.js'
import type { OptsOf } from '../opts-of.js'
import { parseInteger, parsePositiveInteger } from '../parse-options.js'
import { startHeartbeat } from '../progress.js'
import { releaseScriptedModel } from './mock-llm-release.js'

function declareMockLlm(program: CommandUnknownOpts) {
  return program
    .command('mock-llm')
    .description('Serve a scripted model (a policy speaking a chat format) as an OpenAI-compatible endpoint on loopback.')
    .requiredOption('--policy <name>', 'the policy the model plays, e.g. phase-aware-rule')
    .addOption(
      new Option('--format <id>', 'format spoken on /v1/completions and on chat requests without tools')
        .choices(chatFormatIds)
        .default('qwen3'),
    )
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--dataset <split|file.jsonl>', 'the rows whose episodes the model can play', 'eval')
    .option('--host <host>', 'bind address (loopback unless you mean it)', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', parseInteger, 0)
    .option('--model-name <name>', 'the model id served (default scripted-<policy>)')
    .option('--calls-per-turn <k>', 'tool calls per assistant message', parsePositiveInteger, 1)
    .option('--reasoning', 'write a short reasoning text every turn')
    .option('--faults <spec>', 'fault rates, e.g. 429:0.1,500:0.05,timeout:0.02,truncated:0.05,garbage:0.02,reset:0.02')
    .option('--fault-seed <n>', 'seed of the fault draws', parseInteger, 0)
    .option('--latency-ms <n>', 'delay before every answer', parseInteger, 0)
    .option('--api-key-env <var>', 'require the key in this environment variable as a bearer token')
    .option('--no-usage', 'report no token usage (otherwise counted with the Qwen3 tokenizer)')
    .option('--release <dir>', 'grading-v1: play the rows of this RL release (what `gate rollout --release` sends)')
    .option('--split <name>', 'the release split (with --release)', 'val')
    .option('--registry <file>', 'leaf registry the release was built from (with --release)')
    .option('--corpus <file>', 'category corpus the release was built from (with --release)')
    .option('--task-config <file>', 'task config the release was built from (with --release)')
    .option('--grading-config <file>', 'grading standard JSON (with a single-dataset --release)')
    .option('--grading-manifest <file>', 'grading manifest (with --release)')
}

type MockLlmFlags = OptsOf<ReturnType<typeof declareMockLlm>>

export function registerMockLlmCommand(program: CommandUnknownOpts): void {
  declareMockLlm(program).action(async (options) => {
    if (options.release && options.env !== gradingV1Spec.id) {
      throw new InvalidInputError({
        code: 'invalid_option',
        path: '--release',
        message: `--release serves a grading release: use it with --env ${gradingV1Spec.id}.`,
        issues: [],
      })
    }
    const faults = faultsOf(options)
    const apiKey = apiKeyOf(options)
    // Loading a release or the tokenizer takes a while; say so until the ready line (issue 37).
    const beat = startHeartbeat('mock-llm', () => 'starting (the ready line comes on stdout)')
    const model = await scriptedModel(options).catch((error: unknown) => {
      beat.stop()
      throw error
    })
    const server = await startMockOpenAiServer({
      model,
      format: options.format,
      modelName: options.modelName ?? `scripted-${options.policy}`,
      host: options.host,
      port: options.port,
      latencyMs: options.latencyMs,
      ...(faults ? { faults } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(options.usage ? { tokenCounter: await qwen3TokenCounter() } : {}),
    }).finally(() => beat.stop())
    if (!['127.0.0.1', '::1', 'localhost'].includes(options.host))
      process.stderr.write(`warning: serving on ${options.host}, not loopback\n`)
    process.stdout.write(
      `${JSON.stringify({ url: server.url, model: server.modelName, episodes: model.episodeCount, format: options.format })}\n`,
    )
    await new Promise<void>((resolve) => {
      const stop = () => resolve()
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
    await server.close()
  })
}

/** The model the flags name: a release's rows (grading-v1) or an env's dataset, played by the policy. */
async function scriptedModel(options: MockLlmFlags) {
  if (options.release)
    return releaseScriptedModel({
      release: options.release,
      split: options.split,
      policy: options.policy,
      callsPerTurn: options.callsPerTurn,
      reasoning: options.reasoning === true,
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.corpus ? { corpus: options.corpus } : {}),
      ...(options.taskConfig ? { taskConfig: options.taskConfig } : {}),
      ...(options.gradingManifest ? { gradingManifest: options.gradingManifest } : {}),
      ...(options.gradingConfig ? { gradingConfig: options.gradingConfig } : {}),
    })
  return new ScriptedPolicyModel({
    envId: options.env,
    policy: options.policy,
    rows: (await loadDataset({ envId: options.env, source: options.dataset, registry: envRegistry })).rows,
    envs: envRegistry,
    policies: policyRegistry,
    callsPerTurn: options.callsPerTurn,
    reasoning: options.reasoning === true,
  })
}

/** `--faults` as seeded fault draws; a bad spec is `invalid_faults`. */
function faultsOf(options: MockLlmFlags): ReturnType<typeof randomFaults> | undefined {
  if (!options.faults) return undefined
  try {
    return randomFaults({ rates: parseFaultRates(options.faults), seed: options.faultSeed })
  } catch (error) {
    throw new InvalidInputError({ code: 'invalid_faults', path: '--faults', message: (error as Error).message, issues: [] })
  }
}

/** The bearer key `--api-key-env` names; refused when that variable is not set. */
function apiKeyOf(options: MockLlmFlags): string | undefined {
  if (!options.apiKeyEnv) return undefined
  const apiKey = process.env[options.apiKeyEnv]
  if (!apiKey)
    throw new InvalidInputError({
      code: 'missing_api_key',
      path: '--api-key-env',
      message: `${options.apiKeyEnv} is not set.`,
      issues: [],
    })
  return apiKey
}
