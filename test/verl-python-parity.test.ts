/**
 * The Python side of the VeRL launch path (`python/releaseops_verl`: function tools, `compute_score`) against
 * the TypeScript grading env on more than 1,000 recorded calls: every tool text byte for byte (valid calls
 * and every kind of bad argument), every terminal reply judged the same, final-turn completions and whole
 * decoded multi-turn responses scored the same. The Python runs under plain `python -m unittest`.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { pythonDumpsUnicode } from '../src/core/python/python-json.js'
import { demoGradingDataset } from '../src/envs/grading/demo/demo-task.js'
import { writeTaskBundle } from '../src/train/verl/task-bundle.js'
import { testPython } from './support/python.js'
import { demoFixture, temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { type RecordedCall, recordParityCalls } from './verl-parity-calls.js'

let calls: RecordedCall[]
let directory: string

beforeAll(async () => {
  const demo = await demoFixture({ rows: 120 })
  directory = temporaryDirectory('verl-parity')
  const { tasks } = writeTaskBundle({
    directory,
    enableThinking: false,
    files: {
      registry: demo.path('registry'),
      corpus: demo.path('corpus'),
      taskConfig: demo.path('task'),
      gradingManifest: demo.path('gradingManifest'),
      datasets: [demo.dataset],
    },
  })
  const task = tasks[demo.dataset]?.task
  if (!task) throw new Error('no task')
  calls = recordParityCalls({
    task,
    dataset: demo.dataset,
    rows: demoGradingDataset.rows('train'),
    minimum: 1000,
    seed: 20261129,
  })
  writeFileSync(join(directory, 'parity.json'), pythonDumpsUnicode(calls))
})

const errorCode = (text: string) => (JSON.parse(text) as { error?: { code: string } }).error?.code ?? 'ok'

describe('Python compute_score and tools agree with the TypeScript env', () => {
  it('records over 1,000 tool calls covering every result and error code, and every kind of reply', () => {
    const tools = calls.filter((call) => call.kind === 'tool')
    const finals = calls.filter((call) => call.kind === 'final')
    expect(tools.length).toBeGreaterThanOrEqual(1000)
    expect(new Set(tools.map((call) => errorCode(call.text)))).toEqual(
      new Set([
        'ok',
        'unknown_tool',
        'invalid_arguments',
        'empty_field_name',
        'invalid_top_k',
        'unknown_scope',
        'invalid_choice_ids',
        'duplicate_choice_ids',
        'unknown_choice_ids',
        'invalid_limit',
      ]),
    )
    const verdicts = new Set(
      finals.map(
        (call) => (call.final as { code?: string; reward: number }).code ?? `reward ${(call.final as { reward: number }).reward}`,
      ),
    )
    expect(verdicts).toEqual(
      new Set([
        'reward 0',
        'reward 1',
        'empty_answer',
        'answer_not_json',
        'answer_not_object',
        'answer_keys',
        'answer_invalid',
        'level_invalid',
        'unknown_choice_id',
        'unknown_level',
      ]),
    )
    for (const kind of ['completion', 'response'] as const) {
      const scored = calls.filter((call) => call.kind === kind) as { reward: number }[]
      expect(new Set(scored.map((call) => call.reward))).toEqual(new Set([0, 1]))
    }
  })

  it("python -m unittest passes: the parity suite on the recording, and the adapters' unit tests", () => {
    const result = spawnSync(testPython(), ['-m', 'unittest', 'discover', '-v', '-s', 'releaseops_verl/tests', '-t', '.'], {
      cwd: resolve(repositoryRoot, 'python'),
      encoding: 'utf8',
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1',
        RELEASEOPS_VERL_PARITY: join(directory, 'parity.json'),
        RELEASEOPS_VERL_TASK: join(directory, 'task.json'),
      },
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(output).toMatch(/Ran 25 tests/)
    expect(output).not.toMatch(/skipped/)
    expect(output).toMatch(/test_tool_texts_are_byte_identical .* ok/)
    const compared = Number(/tool calls compared: (\d+)/.exec(output)?.[1])
    expect(compared).toBe(calls.filter((call) => call.kind === 'tool').length)
  })
})
