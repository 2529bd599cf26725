/**
 * @module eval/gate: a model double for gate tests and demos, with a chosen accuracy. Its policy reads the
 * episode's labels (privileged), makes a few real tool calls, then answers: right for the sources it is
 * told to get right, a wrong category for the rest, or, for chosen sources, malformed text. Served by the
 * scripted OpenAI-compatible server, it answers in text as a model does (the final reply carries no tool
 * call), so the whole wire path (rendering, parsing, the final reply) is what a real model goes through.
 */

import type { DecodedConversation } from '../../agent/scripted/decode-conversation.js'
import { ScriptedPolicyModel, type ScriptedReply } from '../../agent/scripted/scripted-policy-model.js'
import type { Env } from '../../core/env/env-api.js'
import { generatorPolicy, type Policy } from '../../core/policy/policy.js'
import { finalResponseAction, type GradingObservation } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'

interface LabelledEnv {
  hiddenState(): { source_id: string; choice_id: string; level: string }
}

export interface ScriptedAccuracyOptions {
  task: GradingTask
  /** Source ids answered correctly. */
  correct: ReadonlySet<string>
  /** Source ids answered with text that is not JSON (a parse failure), instead of a wrong category. */
  malformed?: ReadonlySet<string>
  /** Tool calls before the answer (search, then details of its first candidate, …). */
  toolCalls?: number
  /**
   * Source ids answered right on every other sample, the first one right (a sampled model's mixed
   * prompts). `answered` counts the answers per source across episodes; share it between the policies a
   * registry creates, so exactly half of a prompt's samples are right whatever the order they run in.
   */
  alternate?: { sources: ReadonlySet<string>; answered: Map<string, number> }
}

/** The policy behind the model: real tool calls, then the chosen kind of answer. */
export function scriptedAccuracyPolicy(options: ScriptedAccuracyOptions): Policy<GradingObservation> {
  const choices = options.task.choices.choices
  return generatorPolicy<GradingObservation>('scripted-accuracy', function* (start) {
    const env = ((start.env as Env & { unwrapped?: Env }).unwrapped ?? start.env) as unknown as LabelledEnv
    const hidden = env.hiddenState()
    const user = start.observation.messages?.find((message) => message.role === 'user')?.content ?? ''
    const metadata = JSON.parse(user.slice(user.indexOf('\n') + 1) || '{}') as Record<string, string>
    let observation = start.observation
    for (let call = 0; call < (options.toolCalls ?? 1); call++) {
      const first = (observation.result?.candidates as { choice_id: string }[] | undefined)?.[0]?.choice_id
      observation = yield call === 0
        ? {
            name: 'search_categories',
            arguments: { field_name: metadata.field_name ?? '', table_name: metadata.table_name ?? '' },
          }
        : { name: 'get_category_details', arguments: { choice_ids: [first ?? hidden.choice_id] } }
    }
    let content: string
    const alternate = options.alternate
    let right = options.correct.has(hidden.source_id)
    if (alternate?.sources.has(hidden.source_id)) {
      const count = alternate.answered.get(hidden.source_id) ?? 0
      alternate.answered.set(hidden.source_id, count + 1)
      right = count % 2 === 0
    }
    if (right) content = JSON.stringify({ answer: hidden.choice_id, level: hidden.level })
    else if (options.malformed?.has(hidden.source_id))
      content = `I believe it is category ${hidden.choice_id}, level ${hidden.level}.`
    else {
      const wrong = choices[Number(hidden.choice_id) % choices.length]?.choiceId as string
      content = JSON.stringify({ answer: wrong, level: hidden.level })
    }
    yield { name: finalResponseAction, arguments: { content } }
  })
}

/** The scripted model, speaking the final action as assistant text (as a real model answers). */
export class FinalTextScriptedModel extends ScriptedPolicyModel {
  override reply(conversation: DecodedConversation): ScriptedReply {
    const reply = super.reply(conversation)
    const final = reply.calls.find((call) => call.name === finalResponseAction)
    if (!final) return reply
    const args = final.arguments as { content?: unknown }
    return { calls: [], content: typeof args.content === 'string' ? args.content : '', reasoning: reply.reasoning }
  }
}
