/**
 * Completion budgets from measurement: the ladder's calls and replies rendered with the model family's
 * chat template, per policy; a `max_completion_length` under p99 + room is refused with a coded error by
 * `releaseops train budget` and by the start route's run preparation, and the presets take the measured
 * value. Each count is checked against the template rendered by hand for one episode.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { policyAgent } from '../src/agent/policy-agent.js'
import { runEpisode } from '../src/agent/run-episode.js'
import { qwen3TokenCounter } from '../src/agent/token-counter.js'
import { chatFormat } from '../src/chat/format-registry.js'
import { ReleaseOpsError } from '../src/core/errors/release-ops-error.js'
import { envRegistry, policyRegistry } from '../src/envs/index.js'
import { budgetFormatFor, measureCompletionBudget } from '../src/train/completion-budget.js'
import { trainingStartSchema } from '../src/train/training-request.js'
import { prepareTrainingRun } from '../src/train/training-run.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

const envId = 'releaseops-v3'

describe('measureCompletionBudget', () => {
  it('counts each policy’s calls and replies (no assistant text) in the template, deterministically', async () => {
    const options = { envId, envs: envRegistry, policies: policyRegistry, format: 'qwen3' as const, rows: 8 }
    const budget = await measureCompletionBudget(options)
    expect(budget.policies.map((entry) => entry.policy)).toEqual(policyRegistry.names(envId))
    for (const entry of budget.policies) {
      expect(entry.episodes).toBe(8)
      expect(entry.p50).toBeGreaterThan(0)
      expect(entry.p50).toBeLessThanOrEqual(entry.p99)
      expect(entry.p99).toBeLessThanOrEqual(entry.max)
    }
    expect(budget.p99).toBe(Math.max(...budget.policies.map((entry) => entry.p99)))
    expect(budget.minimum).toBe(budget.p99 + budget.room)
    expect(budget.recommended % 64).toBe(0)
    expect(budget.recommended).toBeGreaterThanOrEqual(budget.minimum)
    expect(await measureCompletionBudget(options)).toEqual(budget)

    // The oracle's longest episode by hand, in Qwen3.5's template (prefix-preserving, like TRL's training
    // template): the whole conversation minus the prompt with its generation prompt.
    const qwen35 = await measureCompletionBudget({ ...options, format: 'qwen3.5' })
    const dataset = envRegistry.get(envId).dataset!
    const counter = await qwen3TokenCounter()
    const format = chatFormat('qwen3.5')
    const lengths: number[] = []
    for (const row of dataset.rows('train').slice(0, 8)) {
      const result = await runEpisode({
        env: envRegistry.make(envId),
        agent: policyAgent(policyRegistry.create(envId, 'oracle')),
        reset: dataset.toResetParams(row),
        prompt: row.prompt,
      })
      const messages = result.trajectory.messages.map((message) =>
        message.role === 'assistant' ? { ...message, content: '' } : message,
      )
      const first = messages.findIndex((message) => message.role === 'assistant')
      const tools = result.trajectory.tools
      const head = format.render({ messages: messages.slice(0, first), tools, addGenerationPrompt: true, enableThinking: false })
      const whole = format.render({ messages, tools, enableThinking: false })
      expect(whole.startsWith(head)).toBe(true)
      lengths.push(counter.count(whole) - counter.count(head))
    }
    expect(qwen35.policies.find((entry) => entry.policy === 'oracle')?.max).toBe(Math.max(...lengths))
  })

  it('one tool round is far cheaper than whole episodes; Qwen3.5’s template costs more than Qwen3’s', async () => {
    const base = { envId, envs: envRegistry, policies: policyRegistry, rows: 8 }
    const whole = await measureCompletionBudget({ ...base, format: 'qwen3' })
    const first = await measureCompletionBudget({ ...base, format: 'qwen3', toolRounds: 1 })
    const qwen35 = await measureCompletionBudget({ ...base, format: 'qwen3.5' })
    expect(first.p99).toBeLessThan(whole.p99 / 5)
    expect(first.room).toBe(48)
    expect(qwen35.p99).toBeGreaterThan(whole.p99)
    expect(budgetFormatFor('Qwen/Qwen3.5-0.8B')).toBe('qwen3.5')
    expect(budgetFormatFor('Qwen/Qwen3-0.6B')).toBe('qwen3')
  })
})

describe('the budget refuses a run that would cut episodes short', () => {
  it('`releaseops train budget` prints p50/p99/max per policy and exits 2 with a coded error below the minimum', async () => {
    const budgetCli = (...args: string[]) => runCliInProcess(['train', 'budget', '--env', envId, '--rows', '8', ...args])
    const ok = await budgetCli('--json')
    expect(ok.status, ok.stderr).toBe(0)
    const budget = JSON.parse(ok.stdout)
    const low = await budgetCli('--max-completion-length', String(budget.minimum - 1))
    expect(low.status).toBe(2)
    expect(low.stdout).toMatch(/^policy\s+episodes\s+p50\s+p99\s+max/)
    expect(low.stderr).toContain('error[completion_budget_too_small] (max_completion_length)')
    const enough = await budgetCli('--max-completion-length', String(budget.minimum))
    expect(enough.status, enough.stderr).toBe(0)
  })

  it('the start route’s run preparation refuses 1,024 on v3 and fills the preset with the measured value', async () => {
    const outputsRoot = mkdtempSync(join(tmpdir(), 'releaseops-budget-'))
    const prepare = (body: unknown) =>
      prepareTrainingRun({
        request: trainingStartSchema.parse(body),
        registry: envRegistry,
        defaultEnvId: envId,
        outputsRoot,
        now: new Date(0),
      })
    const refused = await prepare({ preset: 'pilot', max_completion_length: 1024 }).catch((error: unknown) => error)
    expect(ReleaseOpsError.isInstance(refused)).toBe(true)
    expect(refused).toMatchObject({ code: 'completion_budget_too_small', path: 'max_completion_length', status: 422 })
    const pilot = await prepare({ preset: 'pilot' })
    expect(pilot.budget).toMatchObject({ env: envId, format: 'qwen3', rows: 64, tool_rounds: null })
    expect(pilot.parameters.maxCompletionLength).toBe(pilot.budget?.recommended)
    expect(pilot.parameters.maxCompletionLength).toBeGreaterThan(pilot.budget?.p99 ?? Infinity)
    const smoke = await prepare({ preset: 'smoke' })
    expect(smoke.budget?.tool_rounds).toBe(1)
    expect(smoke.parameters.maxCompletionLength).toBe(smoke.budget?.recommended)
  })
})
