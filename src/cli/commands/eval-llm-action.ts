/**
 * @module cli: `releaseops eval --model <name> --base-url <url> [--mode …] [--samples k] [--concurrency N]`:
 * an LLM eval. Episodes append to the episodes file as they finish (Ctrl-C keeps them: rerun with
 * --resume); the summary adds repaired actions, parse issues, tokens, latency percentiles and pass^k.
 * Exit code 3 when some episodes stayed unscored because the endpoint kept failing.
 */

import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import { type Command, InvalidArgumentError, Option } from 'commander'
import type { ChatModel, SamplingOptions } from '../../agent/chat-model.js'
import { type ModelMode, modelModes } from '../../agent/chat-model.js'
import { checkModelEndpoint } from '../../agent/check-model-endpoint.js'
import { createGgufModel } from '../../agent/gguf-model.js'
import { modelAgent } from '../../agent/model-agent.js'
import { OpenAiCompatibleModel } from '../../agent/openai-compatible-model.js'
import { qwen3TokenCounter } from '../../agent/token-counter.js'
import type { ChatFormatId } from '../../chat/format-registry.js'
import type { ErrorCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { envRegistry } from '../../envs/index.js'
import { addRunFacts } from '../../eval/add-run-facts.js'
import { ceilingSummary } from '../../eval/ceiling-policies.js'
import { buildLlmSummary } from '../../eval/llm-summary.js'
import { loadDataset } from '../../eval/load-dataset.js'
import { runFingerprint } from '../../eval/run-fingerprint.js'
import { runLlmEval } from '../../eval/run-llm-eval.js'
import { parseJsonObject, parsePositiveInteger } from '../parse-options.js'
import { createProgress } from '../progress.js'
import { renderLlmDetails, renderSummaryTable } from './eval-summary-table.js'

export interface LlmEvalCommandOptions {
  env: string
  /** Show the env's privileged ceiling policy (the oracle) beside the model (`--no-ceiling` turns it off). */
  ceiling: boolean
  dataset: string
  policy?: string
  out?: string
  episodesOut?: string
  repeat: number
  maxSteps?: number
  model?: string
  baseUrl?: string
  gguf?: string
  mode: ModelMode
  samples: number
  concurrency: number
  apiKeyEnv: string
  temperature?: number
  topP?: number
  topK?: number
  maxTokens?: number
  seed?: number
  enableThinking?: boolean
  chatTemplateKwargs?: Record<string, unknown>
  extraBody?: Record<string, unknown>
  timeout: number
  retries: number
  maxTurns?: number
  resume?: boolean
  trajectories: boolean
  success?: string
  stream?: boolean
  maxModelReply?: number
  countTokens?: boolean
  sendReasoning: boolean
}

function parseNumber(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError('expected a number')
  return parsed
}

function parseNonNegativeInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative integer')
  return parsed
}

export function addLlmEvalOptions(command: Command): void {
  command
    .option('--model <name>', 'model name served by the endpoint (an LLM eval)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1')
    .option('--gguf <file>', 'a local GGUF model through node-llama-cpp (optional package)')
    .addOption(
      new Option('--mode <mode>', 'native tool calling, or a chat format rendered and parsed here')
        .choices(modelModes)
        .default('native'),
    )
    .option('--samples <k>', 'episodes per row (pass^k for k > 1)', parsePositiveInteger, 1)
    .option('--concurrency <n>', 'episodes (and requests) in flight at once', parsePositiveInteger, 4)
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--temperature <t>', 'sampling temperature', parseNumber)
    .option('--top-p <p>', 'nucleus sampling', parseNumber)
    .option('--top-k <k>', 'top-k sampling (vLLM, SGLang, llama.cpp)', parsePositiveInteger)
    .option('--max-tokens <n>', 'completion tokens per turn', parsePositiveInteger)
    .option('--seed <n>', 'sampling seed sent to the endpoint', parseNonNegativeInteger)
    .option('--enable-thinking', 'chat_template_kwargs.enable_thinking = true')
    .option('--no-enable-thinking', 'chat_template_kwargs.enable_thinking = false')
    .option('--chat-template-kwargs <json>', 'extra chat_template_kwargs (JSON object)', parseJsonObject)
    .option('--extra-body <json>', 'extra request fields (JSON object)', parseJsonObject)
    .option('--timeout <seconds>', 'per request attempt', parseNumber, 120)
    .option('--retries <n>', 'retries after a failed attempt (429, 5xx, timeouts, broken answers)', parseNonNegativeInteger, 4)
    .option('--max-turns <n>', "assistant turns per episode (default: the env's step limit)", parsePositiveInteger)
    .option('--resume', 'continue the run recorded in the episodes file')
    .option('--no-trajectories', 'leave the messages out of the episodes file')
    .option('--success <rate>', 'the outcome rate pass^k counts as success (default: the first, e.g. safe_ship)')
    .option('--stream', 'stream responses (server-sent events)')
    .option(
      '--max-model-reply <bytes>',
      'largest endpoint reply read; a bigger one fails the run (default 16 MiB)',
      parsePositiveInteger,
    )
    .option('--count-tokens', 'count tokens with the Qwen3 tokenizer when the endpoint reports no usage')
    .option('--no-send-reasoning', 'native mode: leave reasoning_content out of earlier turns (APIs that reject it)')
}

export function isLlmEval(options: LlmEvalCommandOptions): boolean {
  return options.model !== undefined || options.baseUrl !== undefined || options.gguf !== undefined
}

function invalid(code: ErrorCode, message: string): InvalidInputError {
  return new InvalidInputError({ code, message, issues: [] })
}

async function createModel(options: LlmEvalCommandOptions): Promise<ChatModel> {
  const sampling: SamplingOptions = {
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.topP === undefined ? {} : { top_p: options.topP }),
    ...(options.topK === undefined ? {} : { top_k: options.topK }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  }
  const thinking = options.enableThinking === undefined ? {} : { enableThinking: options.enableThinking }
  if (options.gguf) {
    if (options.mode === 'native')
      throw invalid(
        'invalid_mode',
        '--gguf runs a chat format (--mode qwen3, qwen3.5, qwen3.5-nothink or json-tool-calls), not native.',
      )
    return createGgufModel({ path: options.gguf, format: options.mode as ChatFormatId, sampling, ...thinking })
  }
  if (!options.model || !options.baseUrl)
    throw invalid('missing_model', 'An LLM eval needs both --model and --base-url (or --gguf <file>).')
  const apiKey = process.env[options.apiKeyEnv]
  const model = new OpenAiCompatibleModel({
    baseUrl: options.baseUrl,
    model: options.model,
    mode: options.mode,
    sampling,
    ...thinking,
    ...(apiKey ? { apiKey } : {}),
    ...(options.chatTemplateKwargs ? { chatTemplateKwargs: options.chatTemplateKwargs } : {}),
    ...(options.extraBody ? { extraBody: options.extraBody } : {}),
    stream: options.stream === true,
    sendReasoning: options.sendReasoning,
    timeoutMs: options.timeout * 1000,
    retry: { maxAttempts: options.retries + 1 },
    maxConcurrency: options.concurrency,
    ...(options.maxModelReply === undefined ? {} : { maxReplyBytes: options.maxModelReply }),
    ...(options.countTokens ? { tokenCounter: await qwen3TokenCounter() } : {}),
  })
  await checkModelEndpoint(model.client, options.model)
  return model
}

export async function runLlmEvalAction(options: LlmEvalCommandOptions): Promise<void> {
  if (options.policy) throw invalid('policy_and_model', 'Pass either --policy or a model (--model/--base-url, --gguf), not both.')
  if (options.repeat !== 1)
    throw invalid('repeat_with_model', 'Use --samples k for repeated LLM episodes (pass^k), not --repeat.')
  const registration = envRegistry.get(options.env)
  const dataset = await loadDataset({ envId: options.env, source: options.dataset, registry: envRegistry })
  const episodesPath = options.episodesOut ?? (options.out ? `${options.out.replace(/\.json$/, '')}.episodes.jsonl` : undefined)
  if (options.resume && !episodesPath)
    throw invalid('resume_without_file', '--resume needs the episodes file: pass --episodes-out (or --out).')
  const model = await createModel(options)
  const fingerprint = runFingerprint({
    envId: options.env,
    datasetSha256: dataset.sha256,
    identity: model.identity,
    samples: options.samples,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.maxSteps === undefined ? {} : { maxEpisodeSteps: options.maxSteps }),
  })
  const controller = new AbortController()
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130)
    process.stderr.write('\ninterrupted: finishing nothing more; episodes so far are saved (Ctrl-C again to quit now)\n')
    controller.abort(new Error('interrupted'))
  }
  process.on('SIGINT', interrupt)
  const progress = createProgress('eval')
  const started = performance.now()
  let run: Awaited<ReturnType<typeof runLlmEval>>
  try {
    run = await runLlmEval({
      envId: options.env,
      envs: envRegistry,
      rows: dataset.rows,
      agent: modelAgent(model),
      samples: options.samples,
      concurrency: options.concurrency,
      fingerprint,
      recordTrajectories: options.trajectories,
      signal: controller.signal,
      ...(episodesPath ? { episodesPath } : {}),
      ...(options.resume ? { resume: true } : {}),
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      ...(options.maxSteps === undefined ? {} : { maxEpisodeSteps: options.maxSteps }),
      onEpisode: (_line, done, total) => progress.update(done, total),
    })
  } finally {
    progress.stop()
    process.off('SIGINT', interrupt)
    await model.close?.()
  }
  const seconds = (performance.now() - started) / 1000
  if (run.aborted) {
    process.stderr.write(
      `interrupted after ${run.ran} episode(s); ${episodesPath ? `rerun with --resume to continue from ${episodesPath}` : 'nothing was saved (no --episodes-out)'}\n`,
    )
    process.exitCode = 130
    return
  }
  const summary = buildLlmSummary({
    lines: run.lines,
    groupBy: registration.dataset?.groupBy ?? [],
    samples: options.samples,
    ...(options.success ? { successRate: options.success } : {}),
  })
  const unscored = run.lines.filter((line) => line.status !== 'scored').length
  addRunFacts(summary, {
    env_id: options.env,
    dataset: dataset.name,
    dataset_sha256: dataset.sha256,
    rows: dataset.rows.length,
    samples: options.samples,
    model: model.identity,
    fingerprint,
    episodes: run.lines.length,
    resumed: run.resumed,
    ran: run.ran,
    unscored,
    ...(episodesPath ? { episodes_path: options.out ? relative(dirname(options.out), episodesPath) : episodesPath } : {}),
  })
  if (options.ceiling) {
    // The ceiling (oracle) over the same rows, so the report shows the gap to the best achievable score.
    Object.assign(summary, await ceilingSummary({ envId: options.env, rows: dataset.rows }))
  }
  process.stdout.write(`${renderSummaryTable(summary)}\n\n${renderLlmDetails(summary)}\n`)
  process.stderr.write(
    `${run.ran} episode(s) run, ${run.resumed} resumed, in ${seconds.toFixed(1)} s${run.droppedBytes > 0 ? ` (a half-written last line of ${run.droppedBytes} bytes was dropped)` : ''}\n`,
  )
  if (options.out) {
    await mkdir(dirname(options.out), { recursive: true })
    await writeFile(options.out, `${JSON.stringify(summary, null, 2)}\n`)
  }
  if (unscored > 0) {
    process.stderr.write(
      `${unscored} episode(s) are unscored (the endpoint or env kept failing, not the model); rerun with --resume to retry them.\n`,
    )
    process.exitCode = 3
  }
}
