/**
 * @module core/wrappers: error observations echo what the agent sent (an unknown tool name, a bad id).
 * A huge input echoed whole would blow up the agent's context on every later turn, so where a bad call
 * carries a string over `maxEchoChars`, each echo of it in the observation is cut to that length with
 * a note of the original size. Calls with short inputs (every valid call) are returned untouched.
 */
import type { Observation, StepResult, ToolCall } from '../env/env-api.js'

export const maxEchoChars = 200

function collectLong(value: unknown, into: Set<string>, depth = 0): void {
  if (typeof value === 'string') {
    if (value.length > maxEchoChars) into.add(value)
  } else if (depth < 8 && typeof value === 'object' && value !== null) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) collectLong(item, into, depth + 1)
  }
}

function shortened(text: string): string {
  return `${text.slice(0, maxEchoChars)}… (${text.length} characters)`
}

function bound(value: unknown, long: ReadonlySet<string>, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= maxEchoChars) return value
    if (long.has(value)) return shortened(value)
    let text = value
    for (const input of long) if (text.includes(input)) text = text.split(input).join(shortened(input))
    return text
  }
  if (depth >= 8 || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => bound(item, long, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, bound(item, long, depth + 1)]))
}

/** The step result with echoes of over-long inputs shortened (only when the step is an error). */
export function boundEchoedInput<O extends Observation>(call: ToolCall, result: StepResult<O>): StepResult<O> {
  if (result.observation.error === undefined) return result
  const long = new Set<string>()
  collectLong(call?.name, long)
  collectLong(call?.arguments, long)
  if (typeof call?.arguments === 'string' && call.arguments.length > maxEchoChars) {
    try {
      collectLong(JSON.parse(call.arguments), long)
    } catch {
      // not JSON: the string itself is collected above
    }
  }
  if (long.size === 0) return result
  return { ...result, observation: bound(result.observation, long, 0) as O }
}
