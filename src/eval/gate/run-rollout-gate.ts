/**
 * @module eval/gate: one rollout gate: ask the endpoint what it serves (its model metadata goes into the
 * report; an endpoint that cannot be reached, or that does not serve the model, is an infrastructure error
 * before a single episode), run every row × samples through the agent loop, and build the report. An
 * endpoint failure at any point yields `status: infrastructure_error` with no rate, never a 0% model.
 */
import { createHash } from 'node:crypto'
import type { Agent } from '../../agent/agent.js'
import type { ChatModel } from '../../agent/chat-model.js'
import { apiErrorMessage, EndpointError, isEndpointError } from '../../agent/endpoint-error.js'
import { modelAgent } from '../../agent/model-agent.js'
import type { ChatTool } from '../../chat/chat-message.js'
import type { AnyEnv } from '../../core/env/env-api.js'
import { createOutboundFetch } from '../../io/outbound/outbound-fetch.js'
import { OutboundPolicy } from '../../io/outbound/outbound-policy.js'
import { redactUrl } from '../../io/outbound/redact-url.js'
import { finalReplyAgent } from './final-reply-agent.js'
import type { GateEpisode } from './gate-episode.js'
import { buildGateReport, type GateContext, type GateReport } from './gate-report.js'
import { type GateLoopSettings, type GateRow, runGateEpisodes } from './run-gate-episodes.js'

export interface ServedModel {
  id: string
  [key: string]: unknown
}

/** The CLI names the endpoint: the outbound module checks the scheme, follows no redirect, redacts. */
const openFetch = createOutboundFetch(OutboundPolicy.open())

/** `GET <base>/models`, every entry kept (vLLM adds `root`, `max_model_len`, …). */
async function fetchServedModels(options: {
  baseUrl: string
  apiKey?: string
  fetch?: typeof fetch
  timeoutMs?: number
}): Promise<ServedModel[]> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/models`
  const shown = redactUrl(url)
  let response: Response
  try {
    response = await (options.fetch ?? openFetch)(url, {
      redirect: 'manual',
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    throw new EndpointError({
      code: 'endpoint_unreachable',
      message: `Cannot reach ${shown}: ${cause ?? (error as Error).message}`,
      retryable: true,
    })
  }
  const text = await response.text()
  if (!response.ok)
    throw new EndpointError({
      code: 'endpoint_status',
      message: `${shown} answered HTTP ${response.status}: ${apiErrorMessage(text, response.headers.get('content-type')) ?? `${response.headers.get('content-type') ?? 'no content type'} body, not kept`}`,
      status: response.status,
    })
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data
    return Array.isArray(data) ? data.filter((item): item is ServedModel => typeof item?.id === 'string') : []
  } catch {
    throw new EndpointError({ code: 'endpoint_bad_response', message: `${shown} did not answer JSON.` })
  }
}

export interface RolloutGateOptions {
  rows: readonly GateRow[]
  samples: number
  createEnv: () => AnyEnv
  model: ChatModel
  /** For `GET /models`. */
  endpoint: { baseUrl: string; apiKey?: string; fetch?: typeof fetch }
  loop: GateLoopSettings
  /** The tool schemas the model is shown (VeRL's reduced ones, for an RL gate) and what they are called. */
  tools: { schemas: readonly ChatTool[]; kind: string; names: readonly string[] }
  concurrency: number
  context: Omit<GateContext, 'model' | 'startedAt' | 'finishedAt' | 'env'> & { envId: string; maxEpisodeSteps: number }
  keepTrajectories?: boolean
  signal?: AbortSignal
  onEpisode?: (done: number, total: number) => void
}

export interface RolloutGateResult {
  report: GateReport
  episodes: GateEpisode[]
}

function infrastructureFailure(error: EndpointError | Error): GateEpisode[] {
  return [
    {
      row_index: -1,
      sample: 0,
      key: 'endpoint',
      dataset: null,
      status: 'infra_error',
      reward: 0,
      success: false,
      end: 'infra_error',
      turns: 0,
      tool_calls: 0,
      invalid_tool_calls: 0,
      answer_valid: null,
      answer_code: null,
      parse_issue_turns: 0,
      parse_issue_codes: [],
      valid_calls: {},
      answer_class: null,
      outcome: null,
      fault: { code: (error as { code?: string }).code ?? 'endpoint_error', message: error.message },
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    },
  ]
}

export async function runRolloutGate(options: RolloutGateOptions): Promise<RolloutGateResult> {
  const startedAt = new Date()
  const identity = options.model.identity
  let served: ServedModel[] | null = null
  let episodes: GateEpisode[]
  try {
    served = await fetchServedModels(options.endpoint)
    if (served.length > 0 && !served.some((entry) => entry.id === identity.model)) {
      throw new EndpointError({
        code: 'endpoint_not_found',
        message: `${options.endpoint.baseUrl} serves ${served.map((entry) => entry.id).join(', ')}, not ${identity.model}.`,
        fatal: true,
      })
    }
    const agent: Agent = finalReplyAgent({
      agent: modelAgent(options.model),
      tools: options.tools.schemas,
      ...(options.loop.finalAction ? { finalAction: options.loop.finalAction } : {}),
    })
    episodes = await runGateEpisodes({
      rows: options.rows,
      samples: options.samples,
      createEnv: options.createEnv,
      agent,
      loop: options.loop,
      concurrency: options.concurrency,
      ...(options.keepTrajectories ? { keepTrajectories: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onEpisode ? { onEpisode: options.onEpisode } : {}),
    })
  } catch (error) {
    if (!isEndpointError(error)) throw error
    episodes = infrastructureFailure(error)
  }
  const entry = served?.find((item) => item.id === identity.model) ?? null
  const toolsText = JSON.stringify(options.tools.schemas)
  const { envId, maxEpisodeSteps, ...context } = options.context
  const report = buildGateReport(episodes, {
    ...context,
    model: {
      name: identity.model,
      endpoint: options.endpoint.baseUrl,
      mode: identity.mode,
      served: entry,
      sampling: identity.sampling,
      ...(identity.enable_thinking === undefined ? {} : { enable_thinking: identity.enable_thinking }),
    },
    env: {
      id: envId,
      tools: [...options.tools.names],
      max_episode_steps: maxEpisodeSteps,
      tool_schemas: options.tools.kind,
      tool_schemas_sha256: createHash('sha256').update(toolsText).digest('hex'),
    },
    startedAt,
    finishedAt: new Date(),
  })
  return { report, episodes: episodes.filter((episode) => episode.row_index >= 0) }
}
