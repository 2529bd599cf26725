/**
 * Differential test against the original Python environment: 240 episodes of random valid and
 * invalid calls recorded from it (test/peer/make-original-traces.py) replay here with the same
 * result texts, error messages, cumulative rewards (bit for bit), end flags and metrics.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ReleaseOpsV1Env } from './releaseops-env.js'

interface TraceStep {
  tool: string
  arguments: Record<string, string>
  result_sha?: string
  error?: string
  reward: number
  done: boolean
}

interface Trace {
  reset: { family: string; seed: number; difficulty: string }
  reset_sha: string
  steps: TraceStep[]
  metrics: Record<string, number>
  terminal_reason: string | null
}

const traces: Trace[] = readFileSync(new URL('./__fixtures__/original-traces.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

describe('releaseops-v1 replays the original Python env', () => {
  it('has a meaningful fixture', () => {
    expect(traces.length).toBe(240)
    const reasons = new Set(traces.map((trace) => trace.terminal_reason))
    expect(reasons).toEqual(new Set(['safe_ship', 'unsafe_ship', 'missed_deadline', null]))
  })

  it.each(traces.map((trace, index) => [index, trace.reset.family, trace.reset.seed, trace] as const))(
    'episode %i (%s, seed %i)',
    (_index, _family, _seed, trace) => {
      const env = new ReleaseOpsV1Env()
      const { seed, ...options } = trace.reset
      const reset = env.reset({ seed, options })
      expect(sha(env.render(reset.observation))).toBe(trace.reset_sha)
      trace.steps.forEach((step, position) => {
        const result = env.step({ name: step.tool, arguments: step.arguments })
        const label = `step ${position}: ${step.tool} ${JSON.stringify(step.arguments)}`
        if (step.error !== undefined) {
          // Enum failures carry the argument path in front of the original's message.
          expect(result.observation.error?.message.endsWith(step.error), `${label}: ${result.observation.error?.message}`).toBe(
            true,
          )
        } else {
          expect(result.observation.error, label).toBeUndefined()
          expect(sha(env.render(result.observation)), label).toBe(step.result_sha)
        }
        expect(result.info.cumulative_reward, label).toBe(step.reward)
        expect(result.terminated, label).toBe(step.done)
      })
      const final = env.state()
      expect(final.metrics).toEqual(trace.metrics)
      expect(final.terminal_reason).toBe(trace.terminal_reason)
    },
  )
})
