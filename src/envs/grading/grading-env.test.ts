import { describe, expect, it } from 'vitest'
import type { Env, ResetParams } from '../../core/env/env-api.js'
import type { Policy } from '../../core/policy/policy.js'
import { envConformanceCases } from '../../core/testing/env-conformance.js'
import { envRegistry, makeEnv, policyRegistry } from '../index.js'
import { demoEpisodeSources, demoGradingDataset, demoGradingTask } from './demo/demo-task.js'
import { FinalReply, finalResponseAction, GradingEnv, type GradingObservation } from './grading-env.js'

const task = demoGradingTask()
const sources = demoEpisodeSources()
const first = sources[0]!
const record = {
  id: first.sourceId,
  resolution_status: 'resolved',
  metadata: { ...first.metadata, database_name: 'mes_prod' },
  target: { category_id: first.groundTruth, leaf_name: 'ignored here', category_path: [] },
  data_level: first.groundTruthLevel,
}
const row = demoGradingDataset.rows('test')[0]!
const answer = (choiceId: string, level: string) => ({
  name: finalResponseAction,
  arguments: { content: JSON.stringify({ answer: choiceId, level }) },
})
const choiceOf = (categoryId: string) => task.choices.byCategory(categoryId).choiceId

/** Plays one episode of a policy; returns its total reward. */
function play(env: Env<GradingObservation>, policy: Policy<GradingObservation>, reset: ResetParams): number {
  const start = env.reset(reset)
  const episode = policy.start({ observation: start.observation, info: start.info, spec: env.spec, env })
  let observation = start.observation
  let total = 0
  for (let call = episode.act(observation); call; call = episode.act(observation)) {
    const result = env.step(call)
    total = result.info.cumulative_reward
    observation = result.observation
    if (result.terminated || result.truncated) break
  }
  return total
}

describe('grading-v1 conformance', () => {
  for (const testCase of envConformanceCases<GradingObservation>({
    createEnv: () => makeEnv('grading-v1'),
    resets: [{ seed: 0 }, { seed: 7 }, { seed: 1, options: { record } }, { seed: 2, options: { row } }],
  })) {
    it(testCase.name, () => testCase.run())
  }
})

describe('grading-v1 episodes', () => {
  it('reset gives [system, user] with the catalog and the four metadata fields, never a canonical id', () => {
    const env = new GradingEnv({ task })
    const { observation } = env.reset({ options: { record } })
    const [system, user] = observation.messages!
    expect(system?.content).toBe(task.systemPrompt)
    expect(system?.content).toContain('Catalog (choice_id|name):\n1|钢种成分设计\n2|新品试制试验数据')
    expect(user?.content).toBe(
      `Classify this field metadata:\n{"field_name":${JSON.stringify(first.metadata.field_name)},"table_name":${JSON.stringify(first.metadata.table_name)},"field_description":${JSON.stringify(first.metadata.field_description)},"table_description":${JSON.stringify(first.metadata.table_description)}}`,
    )
    for (const category of task.registry.categories) {
      expect(system?.content.includes(`|${category.category_id}`)).toBe(false)
      expect(user?.content.includes(category.category_id)).toBe(false)
    }
    expect(env.render(observation)).toBe(user?.content)
  })

  it('a record and the equivalent RL row start the same episode', () => {
    const env = new GradingEnv({ task })
    const fromRow = env.reset({ options: { row } }).observation
    const extra = row.extra_info as { source_id: string; metadata: Record<string, string>; ground_truth_level: string }
    const fromRecord = env.reset({
      options: {
        record: {
          id: extra.source_id,
          metadata: extra.metadata,
          target: { category_id: (row.reward_model as { ground_truth: string }).ground_truth },
          data_level: extra.ground_truth_level,
        },
      },
    }).observation
    expect(fromRecord).toEqual(fromRow)
    expect(row.prompt).toEqual(fromRow.messages)
  })

  it('rewards 1.0 only when category and level are both right', () => {
    const env = new GradingEnv({ task })
    const right = choiceOf(first.groundTruth)
    const wrongChoice = right === '1' ? '2' : '1'
    const wrongLevel = task.grading.levels.find((level) => level !== first.groundTruthLevel)!
    const cases: [ReturnType<typeof answer>, number, boolean, boolean][] = [
      [answer(right, first.groundTruthLevel), 1, true, true],
      [answer(right, wrongLevel), 0, true, false],
      [answer(wrongChoice, first.groundTruthLevel), 0, false, true],
    ]
    for (const [call, reward, categoryCorrect, levelCorrect] of cases) {
      env.reset({ options: { record } })
      const result = env.step(call)
      expect([result.reward, result.terminated, result.info.cumulative_reward]).toEqual([reward, true, reward])
      expect(result.observation.final).toMatchObject({
        valid: true,
        category_correct: categoryCorrect,
        level_correct: levelCorrect,
      })
    }
  })

  it('malformed final replies score 0 with a recorded reason and end the episode', () => {
    const env = new GradingEnv({ task })
    const right = choiceOf(first.groundTruth)
    const replies: [string, string][] = [
      ['', 'empty_answer'],
      ['```json\n{"answer":"1","level":"L2"}\n```', 'answer_not_json'],
      [`{"answer":"${right}","level":"${first.groundTruthLevel}","why":"x"}`, 'answer_keys'],
      [`{"answer":"${right}","answer":"${right}","level":"${first.groundTruthLevel}"}`, 'answer_not_json'],
      [`{"answer":"${first.groundTruth}","level":"${first.groundTruthLevel}"}`, 'unknown_choice_id'],
      [`{"answer":"${right}","level":"L9"}`, 'unknown_level'],
      [`{"answer":${right},"level":"${first.groundTruthLevel}"}`, 'answer_invalid'],
      ['[1, 2]', 'answer_not_object'],
    ]
    for (const [content, code] of replies) {
      env.reset({ options: { record } })
      const result = env.step({ name: finalResponseAction, arguments: { content } })
      expect(result.reward).toBe(0)
      expect(result.terminated).toBe(true)
      expect(result.observation.final).toMatchObject({ valid: false, code, reward: 0 })
    }
    env.reset({ options: { record } })
    const padded = env.step(answer(` ${right} `, ` ${first.groundTruthLevel}\n`))
    expect(padded.reward).toBe(1)
  })

  it('tool errors are coded observations that cost nothing and keep the episode going', () => {
    const env = new GradingEnv({ task })
    env.reset({ options: { record } })
    const calls: [string, unknown, string][] = [
      ['search_categories', { field_name: ' ', table_name: 't' }, 'empty_field_name'],
      ['search_categories', { field_name: 'x', table_name: 't', top_k: 3 }, 'invalid_top_k'],
      ['search_categories', { field_name: 'x', table_name: 't', scope: '不存在' }, 'unknown_scope'],
      ['get_category_details', { choice_ids: ['1', '1'] }, 'duplicate_choice_ids'],
      ['get_category_details', { choice_ids: ['99'] }, 'unknown_choice_ids'],
      ['get_category_details', { choice_ids: ['1', '2', '3', '4', '5', '6'] }, 'invalid_arguments'],
      ['get_category_examples', { choice_ids: ['1'], limit: 9 }, 'invalid_limit'],
      ['browse_categories', { extra: 1 }, 'invalid_arguments'],
      [finalResponseAction, { text: 'x' }, 'invalid_arguments'],
    ]
    for (const [name, args, code] of calls) {
      env.reset({ options: { record } })
      const result = env.step({ name, arguments: args })
      expect([result.observation.error?.code, result.reward, result.terminated]).toEqual([code, 0, false])
      expect(JSON.parse(env.render(result.observation))).toEqual({ error: { code, message: result.observation.error?.message } })
    }
  })

  it('a scoped search only returns categories of that scope; browse lists every group once', () => {
    const env = new GradingEnv({ task })
    env.reset({ options: { record } })
    const groups = env.step({ name: 'browse_categories', arguments: {} }).observation.result?.groups as {
      scope_key: string
      category_count: number
    }[]
    expect(groups.map((group) => group.scope_key)).toEqual(['研发数据域', '生产数据域', '运维数据域', '管理数据域', '外部数据域'])
    expect(groups.reduce((sum, group) => sum + group.category_count, 0)).toBe(task.registry.categories.length)
    const scoped = env.step({
      name: 'search_categories',
      arguments: { field_name: 'emp_name', table_name: 'hr_employee', scope: '外部数据域' },
    })
    const ids = (scoped.observation.result?.candidates as { choice_id: string }[] | undefined)!.map(
      (candidate) => candidate.choice_id,
    )
    expect([...ids].sort()).toEqual(['30', '31', '32'])
  })

  it('state and info track tool calls without leaking the labels', () => {
    const env = new GradingEnv({ task })
    env.reset({ options: { record } })
    const search = env.step({ name: 'search_categories', arguments: { field_name: 'coil_no', table_name: 'pr_coil_actual' } })
    expect(search.info).toMatchObject({ step_count: 1, tool_calls: 1 })
    const state = JSON.stringify(env.state())
    expect(state).toContain('"search_categories"')
    expect(state.includes(first.groundTruth) || state.includes(`"${first.groundTruthLevel}"`)).toBe(false)
    expect(env.hiddenState()).toMatchObject({ category_id: first.groundTruth, level: first.groundTruthLevel })
  })

  it('rejects reset options that are ambiguous, unknown or not in the task', () => {
    const env = new GradingEnv({ task })
    const bad: [Record<string, unknown>, string][] = [
      [{ record, row }, 'exactly one'],
      [{ nope: 1 }, 'nope'],
      [{ record: { ...record, target: { category_id: 'Z9-9' } } }, 'Z9-9'],
      [{ record: { ...record, data_level: 'L7' } }, 'L7'],
      [{ record: { ...record, resolution_status: 'placeholder' } }, 'resolution_status'],
      [{ record: { ...record, data_level: undefined } }, 'data_level'],
    ]
    for (const [options, text] of bad) {
      expect(() => env.reset({ options })).toThrowError(expect.objectContaining({ code: 'invalid_reset_options' }))
      try {
        env.reset({ options })
      } catch (error) {
        expect(JSON.stringify(error)).toContain(text)
      }
    }
    expect(() => new GradingEnv({ task }).reset({ seed: 1 })).toThrowError(/no default records/)
  })
})

describe('grading-v1 registration, dataset and baselines', () => {
  it('splits the demo records 8/1/1 without overlap, every row resolvable by the env', () => {
    const dataset = envRegistry.get('grading-v1').dataset!
    const counts = dataset.splits.map((split) => dataset.rows(split).length)
    expect(counts.reduce((a, b) => a + b, 0)).toBe(sources.length)
    expect(counts[0]! > counts[1]! && counts[0]! > counts[2]!).toBe(true)
    const ids = dataset.splits.flatMap((split) =>
      dataset.rows(split).map((item) => (item.extra_info as { source_id: string }).source_id),
    )
    expect(new Set(ids).size).toBe(ids.length)
    expect(JSON.parse(dataset.serializeRow(row))).toEqual(row)
  })

  it('the oracle scores 1.0 on every record; the lexical baseline sits well below it', () => {
    const env = makeEnv<GradingObservation>('grading-v1')
    const rows = demoGradingDataset.rows('train')
    let oracle = 0
    let baseline = 0
    for (const item of rows) {
      const reset = demoGradingDataset.toResetParams(item)
      oracle += play(env, policyRegistry.create('grading-v1', 'oracle') as never, reset)
      baseline += play(env, policyRegistry.create('grading-v1', 'search-top1') as never, reset)
    }
    expect(oracle).toBe(rows.length)
    expect(baseline / rows.length).toBeGreaterThan(0.02)
    expect(baseline / rows.length).toBeLessThan(0.6)
  })
})

describe('a rollout env (finalReplyOnly): only the loop answers', () => {
  it("a model's own final_response call is an unknown tool; the loop's FinalReply ends the episode", () => {
    const env = new GradingEnv({ task, finalReplyOnly: true })
    env.reset({ options: { record } })
    const content = JSON.stringify({ answer: choiceOf(first.groundTruth), level: first.groundTruthLevel })
    const called = env.step({ name: finalResponseAction, arguments: { content } })
    expect([called.terminated, called.reward, called.observation.error?.code]).toEqual([false, 0, 'unknown_tool'])
    expect(env.render(called.observation)).toBe('{"error": {"code": "unknown_tool", "message": "Unknown tool: final_response"}}')
    const answered = env.step({ name: finalResponseAction, arguments: new FinalReply(content) })
    expect([answered.terminated, answered.reward, answered.info.step_count]).toEqual([true, 1, 2])
    // A policy's env (the default) still takes the reserved action with plain arguments.
    const plain = new GradingEnv({ task })
    plain.reset({ options: { record } })
    expect(plain.step({ name: finalResponseAction, arguments: { content } }).reward).toBe(1)
  })
})
