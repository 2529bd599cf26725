/**
 * @module train/verl: the longest episode the grading loop allows, for the response budget: the row's
 * stage-1 prompt, then search → details of the first two surfaced ids → examples of the first (limit 2) —
 * three calls, the budget — and the right answer, every tool message as the env renders it. Everything after
 * the prompt is what VeRL counts against `max_response_length` (tool results included, masked or not).
 */
import type { ChatMessage } from '../../chat/chat-message.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import { GradingEnv, type GradingObservation } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'

export interface ReferenceRow {
  prompt: ChatMessage[]
  ground_truth: string
  extra_info: { source_id: string; metadata: Record<string, string>; ground_truth_level: string }
}

export class ReferenceEpisodes {
  private readonly env: GradingEnv

  constructor(private readonly task: GradingTask) {
    this.env = new GradingEnv({ task })
  }

  /** The episode's messages after the prompt; a call the env rejects ends the plan early (it is still a budget). */
  responseMessages(row: ReferenceRow): ChatMessage[] {
    const { extra_info: extra } = row
    this.env.reset({ options: { row: { reward_model: { ground_truth: row.ground_truth }, extra_info: extra } } })
    const messages: ChatMessage[] = []
    const call = (name: string, args: JsonObject): JsonObject | undefined => {
      const id = `call_${messages.length / 2}_0`
      const observation = this.env.step({ name, arguments: args }).observation as GradingObservation
      messages.push(
        { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] },
        { role: 'tool', content: this.env.render(observation), tool_call_id: id, name },
      )
      return observation.result
    }
    const found = call('search_categories', {
      field_name: extra.metadata.field_name ?? '',
      table_name: extra.metadata.table_name ?? '',
    }) as { candidates?: { choice_id: string }[] } | undefined
    const surfaced = (found?.candidates ?? []).slice(0, 2).map((candidate) => candidate.choice_id)
    if (surfaced.length > 0) {
      call('get_category_details', { choice_ids: surfaced })
      call('get_category_examples', { choice_ids: surfaced.slice(0, 1), limit: 2 })
    }
    const answer = pythonDumpsUnicode({
      answer: this.task.choices.byCategory(row.ground_truth).choiceId,
      level: extra.ground_truth_level,
    })
    messages.push({ role: 'assistant', content: answer })
    return messages
  }
}
