/**
 * @module eval/gate: `gate rollout` as a use case: the formal bounds checked, the split loaded (a
 * release's grading task or an env's dataset, through the loader the caller gives: releases live above
 * this layer), the model built and checked, the same tools, chat format and loop as RL, and the report.
 * The CLI around it parses flags, shows progress, writes the files and sets the exit code.
 */

import { type ChatModelSettings, createChatModel } from '../../agent/create-chat-model.js'
import type { AnyEnv } from '../../core/env/env-api.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import { toOpenAiTool } from '../../core/tools/define-tool.js'
import { gradingAnswerContract } from '../../envs/grading/final-answer-text.js'
import { finalResponseAction, gradingV1Spec } from '../../envs/grading/grading-env.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { envRolloutSource } from './env-rollout-source.js'
import { gateProfileFor } from './gate-reasons.js'
import { formalGateBounds, isFormalBounds, requiredGateDenominator } from './rollout-gate-rule.js'
import type { GateRow } from './run-gate-episodes.js'
import { type RolloutGateResult, runRolloutGate } from './run-rollout-gate.js'
import { verlVisibleTools } from './verl-visible-tools.js'

/** The rows a gate rolls out over, the env they run in, and what the report says of where they came from. */
export interface GateRolloutSource {
  rows: readonly GateRow[]
  createEnv: () => AnyEnv
  release: Record<string, unknown>
}

export interface GateRolloutRequest {
  /** Loads a release's grading split; absent, `envId`'s dataset split (or JSONL file) is used. */
  loadRelease?: () => Promise<GateRolloutSource>
  envId: string
  envs: EnvRegistry
  split: string
  /** An OpenAI-compatible endpoint and model (the gate asks it what it serves). */
  model: ChatModelSettings & { baseUrl: string; model: string; enableThinking: boolean }
  samples: number
  limit?: number
  concurrency: number
  toolSchemas?: 'verl' | 'full'
  lower?: number
  upper?: number
  exploration?: boolean
  minDenominator?: number
  keepTrajectories: boolean
  onEpisode?: (done: number, total: number) => void
}

export interface GateRolloutOutcome {
  result: RolloutGateResult
  bounds: { lower: number; upper: number }
  minDenominator: number
}

function missingOption(path: string, message: string): InvalidInputError {
  return new InvalidInputError({ code: 'missing_option', path, message, issues: [] })
}

/** Custom bounds are exploration only: a formal gate's bounds are fixed, and preflight refuses the others. */
function gateBounds(request: GateRolloutRequest): { lower: number; upper: number } {
  const bounds = { lower: request.lower ?? formalGateBounds.lower, upper: request.upper ?? formalGateBounds.upper }
  if (!request.exploration && !isFormalBounds(bounds))
    throw new InvalidInputError({
      code: 'gate_bounds_not_formal',
      path: request.lower !== undefined && request.lower !== formalGateBounds.lower ? '--lower' : '--upper',
      message: `A formal gate's bounds are [${formalGateBounds.lower}, ${formalGateBounds.upper}]; custom bounds need --exploration (and such a report never launches RLOO).`,
      issues: [],
    })
  return bounds
}

/** The chat and loop settings the report records, so a reader sees the gate ran as RL does. */
function chatAndLoop(mode: string, grading: boolean, maxEpisodeSteps: number) {
  return {
    chat: {
      trajectory_format: nativeToolTrajectoryFormat,
      mode,
      parser:
        mode === 'native'
          ? 'endpoint tool parser'
          : `releaseops ${mode} parser${mode.startsWith('qwen3.5') ? ' (qwen3_coder XML)' : ''}`,
      ...(grading ? { answer_contract: gradingAnswerContract } : {}),
    },
    loop: {
      max_assistant_turns: maxEpisodeSteps,
      max_user_turns: maxEpisodeSteps - (grading ? 1 : 0),
      max_parallel_calls: 1,
      final_reply: grading
        ? `the turn without a tool call, read by ${gradingAnswerContract} → ${finalResponseAction}; a model's own ${finalResponseAction} call is unknown_tool`
        : 'none (the env ends the episode)',
    },
  }
}

export async function gateRollout(request: GateRolloutRequest): Promise<GateRolloutOutcome> {
  const grading = request.loadRelease !== undefined
  if (!grading && request.envId === gradingV1Spec.id)
    throw missingOption(
      '--release',
      'The grading gate runs on a release: pass --release <dir> (or --env releaseops-v3 for the Arena).',
    )
  const bounds = gateBounds(request)
  const whole = request.loadRelease
    ? await request.loadRelease()
    : await envRolloutSource({ envId: request.envId, envs: request.envs, source: request.split })
  const splitRows = whole.rows.length
  const source = request.limit ? { ...whole, rows: whole.rows.slice(0, request.limit) } : whole
  const minDenominator = requiredGateDenominator({
    splitEpisodes: splitRows * request.samples,
    ...(request.minDenominator !== undefined ? { minimum: request.minDenominator } : {}),
  })
  if (source.rows.length === 0)
    throw new InvalidInputError({
      code: 'empty_split',
      path: request.split,
      message: `Split ${request.split} has no episodes.`,
      issues: [],
    })
  const spec = grading ? gradingV1Spec : request.envs.spec(request.envId)
  const fullTools = spec.tools.map((tool) => toOpenAiTool(tool))
  const toolKind = request.toolSchemas ?? (grading ? 'verl' : 'full')
  const model = await createChatModel(request.model)
  const { apiKey } = request.model
  const result = await runRolloutGate({
    rows: source.rows,
    samples: request.samples,
    createEnv: source.createEnv,
    model,
    endpoint: { baseUrl: request.model.baseUrl, ...(apiKey ? { apiKey } : {}) },
    loop: { maxTurns: spec.maxEpisodeSteps, maxToolCallsPerTurn: 1, ...(grading ? { finalAction: finalResponseAction } : {}) },
    tools: {
      schemas: toolKind === 'verl' ? verlVisibleTools(fullTools) : fullTools,
      kind: toolKind,
      names: spec.tools.map((tool) => tool.name),
    },
    concurrency: request.concurrency,
    keepTrajectories: request.keepTrajectories,
    ...(request.onEpisode ? { onEpisode: request.onEpisode } : {}),
    context: {
      envId: spec.id,
      maxEpisodeSteps: spec.maxEpisodeSteps,
      release: source.release,
      ...chatAndLoop(request.model.mode, grading, spec.maxEpisodeSteps),
      thinking: { enable_thinking: request.model.enableThinking },
      limits: {
        rows: source.rows.length,
        split_rows: splitRows,
        samples: request.samples,
        limit: request.limit ?? null,
        concurrency: request.concurrency,
      },
      bounds,
      minDenominator,
      profile: gateProfileFor(spec.id),
      ...(source.rows.every((row) => row.label !== undefined) ? { labels: source.rows.map((row) => row.label as string) } : {}),
      ...(request.exploration ? { exploration: true } : {}),
    },
  })
  return { result, bounds, minDenominator }
}
