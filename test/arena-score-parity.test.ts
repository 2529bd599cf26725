/**
 * The Arena's score, one number everywhere (issue 34): for the same scripted models on the same
 * releaseops-v3 rows, `gate rollout --env releaseops-v3` and `releaseops eval` (both over HTTP against the
 * model double) pay each episode the same `info.cumulative_reward`; replaying the episode's calls through
 * the VeRL adapter's OpenEnv session (`arena_session.ArenaSession`, scored as `ArenaAgentLoop` scores:
 * `cumulative_reward` of the last reply) and through the TRL env class (`ReleaseOpsEnv.get_reward()`)
 * against a live env server gives the same numbers: safe and unsafe ships, missed deadlines, and
 * unfinished episodes that keep the −0.6 charge.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import { PolicyRegistry } from '../src/core/registry/policy-registry.js'
import { envRegistry } from '../src/envs/index.js'
import { gateRollout } from '../src/eval/gate/gate-rollout.js'
import { prepareModelEval, runModelEval } from '../src/eval/model-eval.js'
import type { RunningServer } from '../src/server/start-server.js'
import { arenaGateModels } from './gate-arena-models.js'
import { runTestPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { startTestServer } from './support/test-server.js'

interface Played {
  model: string
  row: Record<string, unknown>
  reset: unknown
  calls: [string, unknown][]
  gate: number
  eval: number
}

const dataset = envRegistry.get('releaseops-v3').dataset!
// Stateless models only (the same model answers the gate and eval alike); each ends episodes its own way.
const models = [
  'approve everything (naive)',
  'rule',
  'dissent-first-reader',
  'never call a tool',
  'approve the first proposal only',
]
const rows = dataset.rows('eval').filter((_, index) => index % 50 === 0)
let server: RunningServer
const played: Played[] = []

async function play(model: (typeof models)[number], rowsFile: string): Promise<void> {
  const spec = arenaGateModels().find((item) => item.name === model)
  if (!spec) throw new Error(`no model ${model}`)
  const policies = new PolicyRegistry()
  policies.register('releaseops-v3', { name: 'model', description: model, create: spec.create as never })
  const scripted = new ScriptedPolicyModel({ envId: 'releaseops-v3', policy: 'model', rows, envs: envRegistry, policies })
  const endpoint = await startMockOpenAiServer({ model: scripted, format: 'qwen3', modelName: 'scripted-supervisor' })
  try {
    const settings = {
      baseUrl: endpoint.url,
      model: 'scripted-supervisor',
      mode: 'qwen3' as const,
      enableThinking: false,
      retries: 0,
    }
    const gate = await gateRollout({
      envId: 'releaseops-v3',
      envs: envRegistry,
      split: rowsFile,
      model: settings,
      samples: 1,
      concurrency: 4,
      keepTrajectories: false,
    })
    const prepared = await prepareModelEval({
      envId: 'releaseops-v3',
      envs: envRegistry,
      dataset: rowsFile,
      model: settings,
      samples: 1,
      concurrency: 4,
      recordTrajectories: false,
      ceiling: false,
    })
    const evaluated = await runModelEval(prepared)
    if (evaluated.aborted) throw new Error('eval aborted')
    const episodes = gate.result.episodes
    expect(episodes).toHaveLength(rows.length)
    expect(evaluated.run.lines).toHaveLength(rows.length)
    for (const line of evaluated.run.lines) {
      const row = rows[line.row_index] as Record<string, unknown>
      played.push({
        model,
        row,
        reset: dataset.toResetParams(row as never),
        calls: line.steps.map((step) => [step.call.name, step.call.arguments]),
        gate: (episodes.find((episode) => episode.row_index === line.row_index) as { reward: number }).reward,
        eval: line.reward,
      })
    }
  } finally {
    await endpoint.close()
  }
}

beforeAll(async () => {
  server = await startTestServer({ defaultEnvId: 'releaseops-v3' })
  const file = join(temporaryDirectory('arena-score'), 'rows.jsonl')
  writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`)
  for (const model of models) await play(model, file)
}, 300_000)
afterAll(async () => {
  await server.close()
})

const script = `
import asyncio, json, os, sys
from releaseops_client.trl_env import ReleaseOpsEnv
from releaseops_verl.arena_session import ArenaSession, cumulative_reward

async def verl(episode):
    async with ArenaSession(os.environ["ARENA_WS"]) as session:
        first = await session.reset(episode["reset"])
        for name, arguments in episode["calls"]:
            await session.step(name, arguments)
        return cumulative_reward(session.last or first)

def trl(episode):
    env = ReleaseOpsEnv(env_id="releaseops-v3")
    row = episode["row"]
    env.reset(**{key: row[key] for key in ("seed", "family", "difficulty", "archetype_mix")})
    for name, arguments in episode["calls"]:
        getattr(env, name)(**arguments)
    return env.get_reward()

episodes = json.load(sys.stdin)
print(json.dumps({"verl": [asyncio.run(verl(item)) for item in episodes], "trl": [trl(item) for item in episodes]}))
`

describe("the Arena's score in the gate, eval, and the VeRL and TRL adapters", () => {
  it('every episode scores the same cumulative reward in all four', async () => {
    expect(played).toHaveLength(models.length * rows.length)
    expect(played.map((episode) => episode.gate)).toEqual(played.map((episode) => episode.eval))
    // Asynchronously: the env server under test runs in this process.
    const result = await runTestPython({
      args: ['-c', script],
      input: JSON.stringify(played),
      cwd: resolve(repositoryRoot, 'python'),
      env: { ARENA_WS: `${server.url.replace('http', 'ws')}/envs/releaseops-v3/ws`, RELEASEOPS_URL: server.url },
    })
    expect(result.stderr).toBe('')
    const scores = JSON.parse(result.stdout) as { verl: number[]; trl: number[] }
    expect(scores.verl).toEqual(played.map((episode) => episode.gate))
    expect(scores.trl).toEqual(played.map((episode) => episode.gate))
    // The set covers every way an Arena episode ends, the unfinished charge included.
    const scored = new Set(played.map((episode) => episode.gate))
    expect(scored.has(-0.6)).toBe(true)
    expect(played.some((episode) => episode.gate > 0.9)).toBe(true)
    expect(played.some((episode) => episode.gate < -0.9)).toBe(true)
  })
})
