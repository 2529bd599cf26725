/** @module envs/grading: the field metadata a policy reads back from the reset prompt's user message. */
import type { GradingObservation } from '../grading-env.js'

const userPrefix = 'Classify this field metadata:\n'

export function readPromptMetadata(observation: GradingObservation): Record<string, string> {
  const user = observation.messages?.find((message) => message.role === 'user')?.content ?? ''
  if (!user.startsWith(userPrefix)) return {}
  return JSON.parse(user.slice(userPrefix.length)) as Record<string, string>
}
