/**
 * @module cli: `releaseops eval --model <name> --base-url <url> [--mode …] [--samples k] [--concurrency N]`:
 * an LLM eval. Episodes append to the episodes file as they finish (Ctrl-C keeps them: rerun with
 * --resume); the summary adds repaired actions, parse issues, tokens, latency percentiles and pass^k.
 * Exit code 3 when some episodes stayed unscored because the endpoint kept failing.
 */

import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings'
import { defaultModelMode, modelModes } from '../../agent/chat-model.js'
import type { ChatModelSettings } from '../../agent/create-chat-model.js'
import type { ErrorCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { envRegistry } from '../../envs/index.js'
import { type ModelEvalOutcome, prepareModelEval, runModelEval } from '../../eval/model-eval.js'
import { parseJsonObject, parseNonNegativeInteger, parseNumber, parsePositiveInteger, pickDefined } from '../parse-options.js'
import { createProgress } from '../progress.js'
import type { EvalFlags } from './eval-command.js'
import { renderLlmDetails, renderSummaryTable } from './eval-summary-table.js'

/** The LLM eval's flags on `eval`; the flags `eval` shares with a policy eval are declared there. */
export function addLlmEvalOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--model <name>', 'model name served by the endpoint (an LLM eval)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1')
    .option('--gguf <file>', 'a local GGUF model through node-llama-cpp (optional package)')
    .addOption(
      new Option('--mode <mode>', 'native tool calling, or a chat format rendered and parsed here')
        .choices(modelModes)
        .default(defaultModelMode),
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

export function isLlmEval(options: EvalFlags): boolean {
  return options.model !== undefined || options.baseUrl !== undefined || options.gguf !== undefined
}

function invalid(code: ErrorCode, message: string): InvalidInputError {
  return new InvalidInputError({ code, message, issues: [] })
}

/** The flags as the model factory's settings (the API key read from the named variable). */
function chatModelSettings(options: EvalFlags): ChatModelSettings {
  const apiKey = process.env[options.apiKeyEnv]
  return {
    ...pickDefined({
      baseUrl: options.baseUrl,
      model: options.model,
      gguf: options.gguf,
      temperature: options.temperature,
      topP: options.topP,
      topK: options.topK,
      maxTokens: options.maxTokens,
      seed: options.seed,
      enableThinking: options.enableThinking,
      chatTemplateKwargs: options.chatTemplateKwargs,
      extraBody: options.extraBody,
      maxReplyBytes: options.maxModelReply,
    }),
    mode: options.mode,
    ...(apiKey ? { apiKey } : {}),
    stream: options.stream === true,
    sendReasoning: options.sendReasoning,
    timeoutMs: options.timeout * 1000,
    retries: options.retries,
    maxConcurrency: options.concurrency,
    countTokens: options.countTokens === true,
  }
}

export async function runLlmEvalAction(options: EvalFlags): Promise<void> {
  if (options.policy) throw invalid('policy_and_model', 'Pass either --policy or a model (--model/--base-url, --gguf), not both.')
  if (options.repeat !== 1)
    throw invalid('repeat_with_model', 'Use --samples k for repeated LLM episodes (pass^k), not --repeat.')
  const episodesPath = options.episodesOut ?? (options.out ? `${options.out.replace(/\.json$/, '')}.episodes.jsonl` : undefined)
  const prepared = await prepareModelEval({
    envId: options.env,
    envs: envRegistry,
    dataset: options.dataset,
    model: chatModelSettings(options),
    samples: options.samples,
    concurrency: options.concurrency,
    recordTrajectories: options.trajectories,
    ceiling: options.ceiling,
    ...pickDefined({
      maxTurns: options.maxTurns,
      maxEpisodeSteps: options.maxSteps,
      episodesPath,
      summaryPath: options.out,
      resume: options.resume,
      success: options.success,
    }),
  })
  const controller = new AbortController()
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130)
    process.stderr.write('\ninterrupted: finishing nothing more; episodes so far are saved (Ctrl-C again to quit now)\n')
    controller.abort(new Error('interrupted'))
  }
  process.on('SIGINT', interrupt)
  const progress = createProgress('eval')
  let outcome: ModelEvalOutcome
  try {
    outcome = await runModelEval(prepared, {
      signal: controller.signal,
      onEpisode: (done, total) => progress.update(done, total),
    })
  } finally {
    progress.stop()
    process.off('SIGINT', interrupt)
  }
  const { run } = outcome
  if (outcome.aborted) {
    process.stderr.write(
      `interrupted after ${run.ran} episode(s); ${episodesPath ? `rerun with --resume to continue from ${episodesPath}` : 'nothing was saved (no --episodes-out)'}\n`,
    )
    process.exitCode = 130
    return
  }
  const { summary, unscored } = outcome
  process.stdout.write(`${renderSummaryTable(summary)}\n\n${renderLlmDetails(summary)}\n`)
  process.stderr.write(
    `${run.ran} episode(s) run, ${run.resumed} resumed, in ${outcome.seconds.toFixed(1)} s${run.droppedBytes > 0 ? ` (a half-written last line of ${run.droppedBytes} bytes was dropped)` : ''}\n`,
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
