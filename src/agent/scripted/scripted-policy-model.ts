/**
 * @module agent/scripted: a model double that plays a registered policy. It is stateless over requests:
 * it finds the episode by the conversation's first user message (indexed from the dataset rows), replays
 * the conversation's calls on its own copy of the env — checking each call is what the policy would have
 * made and each tool result is byte for byte what the env renders — then asks the policy for the next
 * call(s). A conversation that does not replay is a client bug and is reported as such, never papered over.
 */
import type { ChatTool, ParsedToolCall } from '../../chat/chat-message.js'
import type { Env, Observation, ToolCall } from '../../core/env/env-api.js'
import type { DatasetRow } from '../../core/env/env-dataset.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { canonicalJson } from '../../core/json/canonical-json.js'
import type { JsonObject } from '../../core/json/json-value.js'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import type { PolicyRegistry } from '../../core/registry/policy-registry.js'
import { envTools, initialMessages } from '../episode-prompt.js'
import { policyDoneContent } from '../policy-agent.js'
import type { DecodedConversation } from './decode-conversation.js'

export interface ScriptedPolicyModelOptions {
  envId: string
  policy: string
  rows: readonly DatasetRow[]
  envs: EnvRegistry
  policies: PolicyRegistry
  /** Calls per assistant message (the policy's next k calls, stepped on the shadow env). */
  callsPerTurn?: number
  /** Write a short deterministic reasoning text for every turn. */
  reasoning?: boolean
}

export interface ScriptedReply {
  calls: ParsedToolCall[]
  content: string
  reasoning: string | null
}

export class ScriptedConversationError extends ReleaseOpsError {
  constructor(message: string) {
    super({ code: 'scripted_conversation_mismatch', message })
    this.name = 'ScriptedConversationError'
  }
}

const sameCall = (left: ToolCall, right: ParsedToolCall) =>
  left.name === right.name && canonicalJson(left.arguments ?? {}) === canonicalJson(right.arguments)

export class ScriptedPolicyModel {
  readonly tools: ChatTool[]
  private readonly env: Env
  private readonly index = new Map<string, number[]>()

  constructor(private readonly options: ScriptedPolicyModelOptions) {
    const registration = options.envs.get(options.envId)
    options.policies.get(options.envId, options.policy)
    this.env = options.envs.make(options.envId, { bare: true })
    this.tools = envTools(this.env.spec)
    options.rows.forEach((row, rowIndex) => {
      const reset = this.env.reset(registration.dataset ? registration.dataset.toResetParams(row) : { seed: row.seed })
      const messages = initialMessages({ spec: this.env.spec, prompt: row.prompt, resetText: this.env.render(reset.observation) })
      const key = messages.find((message) => message.role === 'user')?.content.trim() ?? ''
      this.index.set(key, [...(this.index.get(key) ?? []), rowIndex])
    })
  }

  get episodeCount(): number {
    return this.options.rows.length
  }

  reply(conversation: DecodedConversation): ScriptedReply {
    const candidates = conversation.firstUser === null ? undefined : this.index.get(conversation.firstUser)
    if (!candidates) {
      throw new ScriptedConversationError(
        `No dataset row of ${this.options.envId} starts with this user message (${this.options.rows.length} rows indexed).`,
      )
    }
    let lastError = ''
    for (const rowIndex of candidates) {
      try {
        return this.replay(rowIndex, conversation)
      } catch (error) {
        if (!ScriptedConversationError.isInstance(error)) throw error
        lastError = error.message
      }
    }
    throw new ScriptedConversationError(lastError)
  }

  private replay(rowIndex: number, conversation: DecodedConversation): ScriptedReply {
    const registration = this.options.envs.get(this.options.envId)
    const row = this.options.rows[rowIndex] as DatasetRow
    const reset = this.env.reset(registration.dataset ? registration.dataset.toResetParams(row) : { seed: row.seed })
    const policy = this.options.policies.create(this.options.envId, this.options.policy)
    const episode = policy.start({ observation: reset.observation, info: reset.info, spec: this.env.spec, env: this.env })
    let observation: Observation = reset.observation
    let ended = false
    conversation.turns.forEach((turn, turnIndex) => {
      turn.calls.forEach((call, callIndex) => {
        if (ended || turn.results[callIndex] === undefined) {
          ended = true
          return
        }
        const expected = episode.act(observation)
        if (!expected || !sameCall(expected, call)) {
          throw new ScriptedConversationError(
            `Turn ${turnIndex} call ${callIndex} is ${JSON.stringify(call)}, but ${this.options.policy} would have called ${JSON.stringify(expected)}.`,
          )
        }
        const step = this.env.step(expected)
        const text = this.env.render(step.observation)
        if (text.trim() !== (turn.results[callIndex] as string).trim()) {
          throw new ScriptedConversationError(
            `The tool result of turn ${turnIndex} call ${callIndex} differs from what ${this.options.envId} renders.`,
          )
        }
        observation = step.observation
        if (step.terminated || step.truncated) ended = true
      })
    })
    if (ended) throw new ScriptedConversationError('The conversation continues after the episode ended.')
    const calls: ParsedToolCall[] = []
    for (let count = 0; count < (this.options.callsPerTurn ?? 1); count++) {
      const next = episode.act(observation)
      if (next === null) break
      calls.push({ name: next.name, arguments: (next.arguments ?? {}) as JsonObject })
      const step = this.env.step(next)
      if (step.terminated || step.truncated) break
      observation = step.observation
    }
    const reasoning = this.options.reasoning ? reasoningText(calls, conversation.turns.length) : null
    return { calls, content: calls.length === 0 ? policyDoneContent : '', reasoning }
  }
}

function reasoningText(calls: readonly ParsedToolCall[], turn: number): string {
  if (calls.length === 0) return `Turn ${turn}: nothing left to do.`
  return `Turn ${turn}: ${calls.map((call) => `${call.name}(${Object.values(call.arguments).join(', ')})`).join(' then ')}.`
}
