/**
 * @module eval/gate: what one gate episode counts as: its reward and success (reward > 0), how the loop
 * ended, the tool calls made, the final answer's verdict, parse failures (chat-format issues that lost a
 * tool call, and final answers that are not a valid answer), and an infrastructure fault when the
 * endpoint kept failing (such an episode is not scored: it is not the model's failure).
 */
import type { AgentEpisodeResult } from '../../agent/agent-trajectory.js'
import type { ChatMessage } from '../../chat/chat-message.js'
import { FinalReply } from '../../envs/grading/grading-env.js'

export interface GateEpisode {
  row_index: number
  sample: number
  /** The row's identity (the RL row's source id, or the dataset row key). */
  key: string
  dataset: string | null
  status: 'scored' | 'infra_error' | 'tool_error'
  reward: number
  success: boolean
  end: string
  turns: number
  tool_calls: number
  invalid_tool_calls: number
  /** Null when the episode ended without a final answer (no reply, step limit). */
  answer_valid: boolean | null
  answer_code: string | null
  parse_issue_turns: number
  parse_issue_codes: string[]
  /** Valid calls (the env did not reject them) per tool, the final reply left out. */
  valid_calls: Record<string, number>
  /** A valid final answer's class, `<choice_id>|<level>`; null otherwise. */
  answer_class: string | null
  /** How the env ended the episode (`info.terminal_reason` or `info.truncated_reason`), if it said. */
  outcome: string | null
  /** The answer turn as the model generated it (with trajectories): what an RL reward would decode. */
  final_turn?: { text: string; open_think: boolean }
  fault?: { code: string; message: string }
  usage: { prompt_tokens: number; completion_tokens: number }
  trajectory?: ChatMessage[]
}

/** Issue codes that do not lose anything: repairs, and a reply that simply has no tool call. */
function lostCodes(turn: AgentEpisodeResult['turns'][number]): string[] {
  return turn.issues.filter((issue) => !issue.repaired && issue.code !== 'no_tool_call').map((issue) => issue.code)
}

export function gateEpisode(options: {
  result: AgentEpisodeResult
  rowIndex: number
  sample: number
  key: string
  dataset: string | null
  finalAction?: string
  keepTrajectory?: boolean
}): GateEpisode {
  const { result, finalAction } = options
  const outcome = result.info.outcome as
    | { valid?: unknown; code?: unknown; answer?: { choice_id?: unknown; level?: unknown } }
    | undefined
  const isFinal = (step: AgentEpisodeResult['steps'][number]) =>
    finalAction !== undefined && step.call.name === finalAction && step.call.arguments instanceof FinalReply
  const finalStep = result.steps.find(isFinal)
  const answered = finalStep !== undefined && outcome !== undefined
  const codes = result.turns.flatMap(lostCodes)
  const status = result.end === 'infra_error' ? 'infra_error' : result.end === 'tool_error' ? 'tool_error' : 'scored'
  const messages = result.trajectory.messages
  const trimmed =
    answered && result.steps.at(-1) === finalStep && messages.at(-1)?.role === 'tool' ? messages.slice(0, -1) : messages
  const validCalls: Record<string, number> = {}
  for (const step of result.steps)
    if (!isFinal(step) && step.error === undefined) validCalls[step.call.name] = (validCalls[step.call.name] ?? 0) + 1
  const answer = answered && outcome.valid === true ? outcome.answer : undefined
  const ended = result.info.terminal_reason ?? result.info.truncated_reason
  const turn = finalStep ? (finalStep.call.arguments as FinalReply).turn : undefined
  return {
    row_index: options.rowIndex,
    sample: options.sample,
    key: options.key,
    dataset: options.dataset,
    status,
    reward: result.reward,
    success: status === 'scored' && result.reward > 0,
    end: result.end,
    turns: result.counts.turns,
    tool_calls: result.steps.filter((step) => !isFinal(step)).length,
    invalid_tool_calls: result.counts.invalid_actions,
    answer_valid: answered ? outcome.valid === true : null,
    answer_code: answered && typeof outcome.code === 'string' ? outcome.code : null,
    parse_issue_turns: result.turns.filter((turn) => lostCodes(turn).length > 0).length,
    parse_issue_codes: codes,
    valid_calls: validCalls,
    answer_class: answer ? `${String(answer.choice_id)}|${String(answer.level)}` : null,
    outcome: typeof ended === 'string' ? ended : null,
    ...(result.fault ? { fault: { code: result.fault.code, message: result.fault.message } } : {}),
    usage: { prompt_tokens: result.usage.prompt_tokens, completion_tokens: result.usage.completion_tokens },
    ...(options.keepTrajectory && turn ? { final_turn: { text: turn.text, open_think: turn.openThink } } : {}),
    ...(options.keepTrajectory ? { trajectory: trimmed } : {}),
  }
}
