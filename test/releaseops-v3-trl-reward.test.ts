/**
 * The TRL env class's `get_reward()` on releaseops-v3, unchanged Python against a live server: an episode
 * the model leaves unfinished (no tool call at all, or a few calls and then none) returns −0.6 plus what
 * it spent, the missed-deadline score; a shipped episode returns its outcome. Calls after the end change
 * nothing. The expected numbers come from the in-process env.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeEnv } from '../src/envs/index.js'
import { inspectByPrefix } from '../src/envs/releaseops/shared/policy-calls.js'
import type { ReleaseOpsV3Observation } from '../src/envs/releaseops/v3/releaseops-env.js'
import type { RunningServer } from '../src/server/start-server.js'
import { repositoryRoot } from './support/run-cli.js'
import { startTestServer } from './support/test-server.js'

let server: RunningServer
beforeAll(async () => {
  server = await startTestServer({ defaultEnvId: 'releaseops-v3' })
})
afterAll(async () => {
  await server.close()
})

const script = `
import json, os
from releaseops_client.trl_env import ReleaseOpsEnv
env = ReleaseOpsEnv(env_id="releaseops-v3")
row = dict(seed=7, family="green_ci_disabled_payment_test", difficulty="low", archetype_mix="shortcut__careful__deadline")
out = {}
env.reset(**row)
out["no_call"] = env.get_reward()
env.ask_worker(worker_id="ci_fixer", question_type="policy_basis")
out["one_call"] = env.get_reward()
state = json.loads(env.reset(**row))
ship = [p for p in state["proposals"] if p["request"] == "ship_release_candidate"][0]
env.approve_proposal(proposal_id=ship["id"])
out["shipped"] = env.get_reward()
out["after_end"] = json.loads(env.hold_release(reason_code="awaiting_fix"))["error"]["code"]
out["after_end_reward"] = env.get_reward()
# Inspect the ship's two refs, then stop: the per-turn sum and the score, through the client and the TRL class.
from releaseops_client import ReleaseOpsClient, final_score
session = ReleaseOpsClient(os.environ["RELEASEOPS_URL"], env_id="releaseops-v3").create_session(**row)
ship = [p for p in session.last["observation"]["view"]["proposals"] if p["request"] == "ship_release_candidate"][0]
tools = {"pr": ("inspect_pr_diff", "pr_id"), "ci": ("inspect_ci_run", "run_id"), "ti": ("inspect_ticket", "ticket_id")}
out["turn_sum"] = 0.0
env.reset(**row)
for ref in ship["refs"][:2]:
    tool, key = tools[ref[:2]]
    out["turn_sum"] += session.step(tool, {key: ref})["reward"]
    getattr(env, tool)(**{key: ref})
out["final_score"] = final_score(session.last)
out["session_score"] = session.final_score()
out["trl_score"] = env.get_reward()
session.close()
print(json.dumps(out))
`

function python(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn('python3', ['-B', '-E', '-s', '-c', script], {
      cwd: resolve(repositoryRoot, 'python'),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', RELEASEOPS_URL: server.url },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('close', (code) => resolveRun({ code, output }))
  })
}

describe('TRL env class on releaseops-v3', () => {
  it('get_reward() scores an unfinished episode as a missed deadline, with no Python change', async () => {
    const { code, output } = await python()
    expect(code, output).toBe(0)
    const result = JSON.parse(output.trim().split('\n').at(-1) as string)
    expect(result.no_call).toBeCloseTo(-0.6)
    expect(result.one_call).toBeCloseTo(-0.65)
    expect([1, -1]).toContain(result.shipped)
    expect(result.after_end).toBe('episode_terminal')
    expect(result.after_end_reward).toBe(result.shipped)
  }, 30_000)

  it('final_score() reads the score; a sum of per-turn rewards misses the unfinished charge (issue 27)', async () => {
    const env = makeEnv<ReleaseOpsV3Observation>('releaseops-v3')
    const start = env.reset({
      seed: 7,
      options: { family: 'green_ci_disabled_payment_test', difficulty: 'low', archetype_mix: 'shortcut__careful__deadline' },
    })
    const ship = start.observation.view.proposals.find((item) => item.request === 'ship_release_candidate')!
    let turns = 0
    let score = start.info.cumulative_reward
    for (const ref of ship.refs.slice(0, 2)) {
      const result = env.step(inspectByPrefix(ref) as never)
      turns += result.reward
      score = result.info.cumulative_reward
    }
    expect(score).toBeCloseTo(turns - 0.6, 12)
    const { code, output } = await python()
    expect(code, output).toBe(0)
    const result = JSON.parse(output.trim().split('\n').at(-1) as string)
    expect(result.turn_sum).toBeCloseTo(turns, 12)
    expect(result.final_score).toBeCloseTo(score, 12)
    expect(result.session_score).toBe(result.final_score)
    expect(result.trl_score).toBe(result.final_score)
    expect(result.final_score).toBeCloseTo(result.turn_sum - 0.6, 12)
  }, 30_000)
})
