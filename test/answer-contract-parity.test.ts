/**
 * One answer contract, two languages (issue 34, decision 0064): every case of the committed corpus of
 * adversarial final turns (`python/releaseops_verl/tests/answer_contract_corpus.json`: answers in tool
 * calls, in think blocks, fenced, duplicated, with trailing text, two objects, odd whitespace; qwen3,
 * qwen3.5, qwen3.5-nothink and native tool calls) goes through `gate rollout`'s own path (a model double
 * over HTTP speaking the case's text verbatim, the chat format's parser, the loop, the grading env) and
 * pays what the corpus says; Python's `reward.py` is held to the same corpus (`test_answer_contract.py`),
 * and then scores every final turn of this very gate run (`gate_run_check.py`): equal on every episode.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelMode } from '../src/agent/chat-model.js'
import { OpenAiCompatibleModel } from '../src/agent/openai-compatible-model.js'
import { toOpenAiTool } from '../src/core/tools/define-tool.js'
import { gradingAnswerContract } from '../src/envs/grading/final-answer-text.js'
import { finalResponseAction, gradingV1Spec } from '../src/envs/grading/grading-env.js'
import type { GateEpisode } from '../src/eval/gate/gate-episode.js'
import { runRolloutGate } from '../src/eval/gate/run-rollout-gate.js'
import { verlVisibleTools } from '../src/eval/gate/verl-visible-tools.js'
import type { RlRow } from '../src/release/rl/rl-row.js'
import { writeTaskBundle } from '../src/train/verl/task-bundle.js'
import { type GateFixture, gateFixture } from './gate-fixture.js'
import { type NativeTurn, startCompletionScriptServer } from './support/completion-script-server.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'

interface Case {
  id: string
  format: 'qwen3' | 'qwen3.5' | 'qwen3.5-nothink' | 'native'
  enable_thinking: boolean
  open_think: boolean
  turns: string[]
  native_turns?: NativeTurn[]
  reward: number
  code: string | null
  gate_answers: boolean
}

const corpus = JSON.parse(
  readFileSync(join(repositoryRoot, 'python/releaseops_verl/tests/answer_contract_corpus.json'), 'utf8'),
) as { contract: string; cases: Case[] }

interface Played {
  case: Case
  episode: GateEpisode
  labels: { dataset: string; ground_truth: string; level: string }
  served: string
}

let fixture: GateFixture
const played: Played[] = []

function fill(text: string, labels: Record<string, string>): string {
  return Object.entries(labels).reduce((out, [key, value]) => out.replaceAll(key, value), text)
}

function fillTurn(turn: NativeTurn, labels: Record<string, string>): NativeTurn {
  return JSON.parse(fill(JSON.stringify(turn), labels)) as NativeTurn
}

/** One gate run per format and thinking mode, case i on val row i. */
async function playGroup(cases: readonly Case[]): Promise<void> {
  const first = cases[0] as Case
  const rows = fixture.source.rows.slice(0, cases.length)
  if (rows.length < cases.length) throw new Error('not enough val rows for the corpus')
  const byUser = new Map<string, readonly (string | NativeTurn)[]>()
  const labelsOf = rows.map((row, index) => {
    const rl = (row.reset.options as { row: RlRow }).row
    const choice = fixture.task.choices.byCategory(rl.reward_model.ground_truth).choiceId
    const wrong = fixture.task.choices.choices.find((item) => item.choiceId !== choice)?.choiceId as string
    const placeholders = { '{{ANSWER}}': choice, '{{LEVEL}}': rl.extra_info.ground_truth_level, '{{WRONG}}': wrong }
    const item = cases[index] as Case
    const turns =
      item.format === 'native'
        ? (item.native_turns ?? []).map((turn) => fillTurn(turn, placeholders))
        : item.turns.map((turn) => fill(turn, placeholders))
    const user = (rl.prompt as { role: string; content: string }[]).find((message) => message.role === 'user')?.content ?? ''
    byUser.set(user.trim(), turns)
    return {
      labels: {
        dataset: rl.extra_info.dataset,
        ground_truth: rl.reward_model.ground_truth,
        level: rl.extra_info.ground_truth_level,
      },
      served: fill(item.turns.at(-1) as string, placeholders),
    }
  })
  const server = await startCompletionScriptServer({ turns: (user) => byUser.get(user) })
  try {
    const mode = first.format as ModelMode
    const full = gradingV1Spec.tools.map((tool) => toOpenAiTool(tool))
    const model = new OpenAiCompatibleModel({
      baseUrl: server.url,
      model: 'script',
      mode,
      enableThinking: first.enable_thinking,
      retry: { maxAttempts: 1 },
    })
    const { report, episodes } = await runRolloutGate({
      rows,
      samples: 1,
      createEnv: fixture.source.createEnv,
      model,
      endpoint: { baseUrl: server.url },
      loop: { maxTurns: 4, maxToolCallsPerTurn: 1, finalAction: finalResponseAction },
      tools: { schemas: verlVisibleTools(full), kind: 'verl', names: full.map((tool) => tool.function.name) },
      concurrency: 4,
      keepTrajectories: true,
      context: {
        envId: gradingV1Spec.id,
        maxEpisodeSteps: 4,
        release: fixture.source.release,
        chat: { trajectory_format: 'qwen3.5-native-tools-v2', mode, parser: 'test' },
        loop: { max_assistant_turns: 4, max_user_turns: 3, max_parallel_calls: 1 },
        thinking: { enable_thinking: first.enable_thinking },
        limits: { rows: rows.length, samples: 1, limit: null, concurrency: 4 },
        bounds: { lower: 0.05, upper: 0.3 },
      },
    })
    expect(report.infrastructure.unscored_episodes).toBe(0)
    for (const episode of episodes)
      played.push({
        case: cases[episode.row_index] as Case,
        episode,
        ...(labelsOf[episode.row_index] as Omit<Played, 'case' | 'episode'>),
      })
  } finally {
    await server.close()
  }
}

beforeAll(async () => {
  fixture = await gateFixture(500)
  const groups = new Map<string, Case[]>()
  for (const item of corpus.cases) {
    const key = `${item.format}/${item.enable_thinking}`
    groups.set(key, [...(groups.get(key) ?? []), item])
  }
  for (const cases of groups.values()) await playGroup(cases)
}, 300_000)

afterAll(() => {
  played.length = 0
})

describe('the answer contract in the TypeScript gate', () => {
  it('pays every corpus case what the corpus says, in every chat format', () => {
    expect(corpus.contract).toBe(gradingAnswerContract)
    expect(played).toHaveLength(corpus.cases.length)
    const mismatches = played.flatMap(({ case: item, episode }) => {
      const got = {
        reward: episode.reward,
        answered: episode.answer_valid !== null,
        code: episode.answer_valid === true ? null : episode.answer_code,
      }
      const want = { reward: item.reward, answered: item.gate_answers, code: item.gate_answers ? item.code : null }
      return JSON.stringify(got) === JSON.stringify(want) ? [] : [{ id: item.id, got, want }]
    })
    expect(mismatches).toEqual([])
  })

  it('an answer written inside a tool call is no answer: the call is a tool turn, unknown to the env, and pays 0', () => {
    const inCalls = played.filter(({ case: item }) => !item.gate_answers)
    expect(inCalls.length).toBeGreaterThanOrEqual(20)
    for (const { case: item, episode } of inCalls) {
      expect(episode.reward, item.id).toBe(0)
      expect(episode.answer_valid, item.id).toBeNull()
      expect(episode.invalid_tool_calls, item.id).toBeGreaterThanOrEqual(1)
      expect(episode.end, item.id).toBe('truncated')
    }
    const rightInside = inCalls.filter(({ case: item }) => item.id.startsWith('final-response-call/'))
    expect(rightInside.map(({ case: item }) => item.format).sort()).toEqual([
      'native',
      'qwen3',
      'qwen3',
      'qwen3.5',
      'qwen3.5-nothink',
    ])
  })
})

describe("VeRL's reward on the same turns (Python)", () => {
  it('reward.py gives every corpus case and every final turn of this gate run what the gate gave', () => {
    const directory = temporaryDirectory('answer-contract')
    writeTaskBundle({
      directory,
      enableThinking: false,
      files: { ...fixture.files, datasets: ['steel_demo'] },
    })
    const episodes = played.map(({ case: item, episode, labels, served }) => ({
      case: item.id,
      ...labels,
      final_turn: episode.final_turn?.text ?? served,
      open_think: episode.final_turn?.open_think ?? item.open_think,
      reward: episode.reward,
      answered: episode.answer_valid !== null,
      code: episode.answer_valid === true ? null : episode.answer_code,
    }))
    // The gate recorded each answer turn as generated: the text served, byte for byte.
    for (const { case: item, episode, served } of played)
      if (episode.final_turn && item.format !== 'native') expect(episode.final_turn.text, item.id).toBe(served)
    const run = join(directory, 'gate-run.json')
    writeFileSync(run, JSON.stringify({ contract: gradingAnswerContract, episodes }))
    const result = spawnSync(
      testPython(),
      ['-m', 'unittest', '-v', 'releaseops_verl.tests.test_answer_contract', 'releaseops_verl.tests.gate_run_check'],
      {
        cwd: resolve(repositoryRoot, 'python'),
        encoding: 'utf8',
        env: {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          RELEASEOPS_ANSWER_RUN: run,
          RELEASEOPS_VERL_TASK: join(directory, 'task.json'),
        },
      },
    )
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(output).toMatch(/Ran 4 tests/)
    expect(output).not.toMatch(/skipped/)
    expect(output).toContain(`corpus cases compared: ${corpus.cases.length}`)
    expect(output).toContain(`gate episodes compared: ${episodes.length}`)
  })
})
