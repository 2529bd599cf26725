/**
 * `verl config --env releaseops-v3`: the Arena's VeRL run directory (prompt rows as `releaseops eval`
 * builds them, reset parameters, tools, agent-loop YAML, overrides), its preflight against a live env
 * server (capacity for one step's sessions), and the Python side's OpenEnv `/ws` session (standard
 * library WebSocket client) scoring an episode exactly as the in-process env does, reporting its end
 * (`terminal_outcome`, v1–v3) and closing with OpenEnv's close message (the server counts `client_closed`).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { initialMessages } from '../src/agent/episode-prompt.js'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { readParquetRows } from '../src/release/parquet/parquet-rows.js'
import type { RunningServer } from '../src/server/start-server.js'
import { runVerlPreflight } from '../src/train/verl/run-verl-preflight.js'
import { runArenaVerlConfig } from '../src/train/verl/write-arena-config.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { startTestServer } from './support/test-server.js'
import { fakeMachine } from './verl-fixture.js'

let server: RunningServer
let small: RunningServer

beforeAll(async () => {
  server = await startTestServer({ defaultEnvId: 'releaseops-v3' })
  small = await startTestServer({ defaultEnvId: 'releaseops-v3', maxSessions: 8 })
})
afterAll(async () => {
  await server.close()
  await small.close()
})

const wsUrl = (running: RunningServer) => `${running.url.replace('http', 'ws')}/envs/releaseops-v3/ws`

describe('the Arena on VeRL', () => {
  it('writes prompt rows, tools, agent-loop YAML and RLOO overrides; preflight needs an env server with room for a step', async () => {
    const machine = fakeMachine()
    const run = join(temporaryDirectory('verl-arena'), 'run')
    const config = await runArenaVerlConfig({
      outputDir: run,
      envUrl: wsUrl(server),
      settings: {
        kind: 'rloo',
        model_path: machine.model,
        python: machine.python,
        train_batch_size: 256,
        ppo_mini_batch_size: 64,
        rollout_n: 8,
      },
    })
    expect(config.rows).toEqual({ train: { split: 'train', rows: 2400 }, val: { split: 'eval', rows: 500 } })
    expect(config.overrides).toEqual(
      expect.arrayContaining([
        'algorithm.adv_estimator=rloo',
        'actor_rollout_ref.rollout.multi_turn.format=qwen3_coder',
        'actor_rollout_ref.rollout.agent.default_agent_loop=releaseops_arena',
        `actor_rollout_ref.rollout.agent.agent_loop_config_path=${join(run, 'agent_loop.yaml')}`,
        `data.val_files=${join(run, 'arena', 'val.parquet')}`,
        'actor_rollout_ref.rollout.multi_turn.max_user_turns=16',
        'trainer.use_v1=False',
      ]),
    )
    expect(
      config.overrides.some((entry) => entry.includes('function_tool_path') || entry.includes('custom_reward_function')),
    ).toBe(false)
    expect(readFileSync(join(run, 'agent_loop.yaml'), 'utf8')).toContain(`env_url: ${JSON.stringify(wsUrl(server))}`)

    // Each row: the env's own first observation appended to the row's prompt, as an eval builds it.
    const { rows } = await readParquetRows(join(run, 'arena', 'val.parquet'))
    expect(rows).toHaveLength(500)
    const dataset = envRegistry.get('releaseops-v3').dataset!
    const source = dataset.rows('eval')[7]!
    const row = rows[7] as { prompt: { role: string; content: string }[]; extra_info: { reset: string; row_id: string } }
    const env = makeEnv('releaseops-v3')
    const reset = dataset.toResetParams(source)
    expect(JSON.parse(row.extra_info.reset)).toEqual(reset)
    expect(row.extra_info.row_id).toBe('eval-7')
    const expected = initialMessages({
      spec: env.spec,
      prompt: source.prompt,
      resetText: env.render(env.reset(reset).observation),
    })
    expect(row.prompt).toEqual(expected.map((message) => ({ role: message.role, content: message.content })))

    const manifest = await runVerlPreflight({ runDirectory: run, nvidiaSmi: machine.nvidiaSmi, host: { minGpuMemoryGib: 80 } })
    expect(manifest.failed).toEqual([])
    expect(manifest.checks.find((check) => check.name === 'env_server')?.detail).toMatch(/room for \d+ ≥ 2048 sessions/)
    expect(manifest.command).toContain('actor_rollout_ref.rollout.agent.default_agent_loop=releaseops_arena')
    const host = manifest.checks.find((check) => check.name === 'host')?.facts as { python: { imports: Record<string, unknown> } }
    expect(Object.keys(host.python.imports)).toContain('releaseops_verl.arena_agent_loop')

    const tight = join(temporaryDirectory('verl-arena'), 'run')
    await runArenaVerlConfig({
      outputDir: tight,
      envUrl: wsUrl(small),
      settings: { kind: 'rloo', model_path: machine.model, python: machine.python },
    })
    const refused = await runVerlPreflight({ runDirectory: tight, nvidiaSmi: machine.nvidiaSmi, host: { minGpuMemoryGib: 80 } })
    expect(refused.failed).toEqual(['env_server'])
    expect(refused.command).toBeNull()
    expect(refused.checks.find((check) => check.name === 'env_server')?.detail).toMatch(/room for 8 sessions, one step opens 16/)

    await expect(
      runArenaVerlConfig({ outputDir: join(tight, 'x'), settings: { kind: 'sft', model_path: machine.model } }),
    ).rejects.toMatchObject({
      code: 'invalid_verl_settings',
    })
    await expect(
      runArenaVerlConfig({
        outputDir: join(tight, 'y'),
        envUrl: 'http://127.0.0.1:1/ws',
        settings: { kind: 'rloo', model_path: machine.model },
      }),
    ).rejects.toMatchObject({ code: 'invalid_env_url' })
  }, 300_000)

  it("the Python side's /ws session scores as the in-process env, reports its end, and closes as OpenEnv's client does", async () => {
    // Whole episodes of v1, v2 and v3 (their terminal_reason), and v3 ones cut before the ship: an
    // unfinished episode keeps the missed-deadline −0.6 and is reported `unfinished`.
    const episodes = (['releaseops-v1', 'releaseops-v2', 'releaseops-v3'] as const).flatMap((envId) => {
      const dataset = envRegistry.get(envId).dataset!
      const policies = envId === 'releaseops-v3' ? ['naive', 'evidence-heuristic'] : ['naive', 'phase-aware-rule']
      return dataset
        .rows('eval')
        .slice(0, 4)
        .flatMap((row, index) => {
          const reset = dataset.toResetParams(row)
          const result = runPolicyEpisode({
            env: makeEnv(envId),
            policy: policyRegistry.create(envId, policies[index % 2]!),
            reset,
            recordSteps: true,
          })
          const steps = (result.steps ?? []).map((step) => [step.call.name, step.call.arguments])
          const whole = {
            envId,
            reset,
            calls: steps,
            reward: result.info.cumulative_reward,
            outcome: result.terminated ? String(result.info.terminal_reason) : result.truncated ? 'truncated' : 'unfinished',
          }
          if (envId !== 'releaseops-v3') return [whole]
          const played = steps.slice(0, steps.length - 1)
          const env = makeEnv(envId)
          let info = env.reset(reset).info
          for (const [name, args] of played)
            info = env.step({ name: name as string, arguments: args as Record<string, unknown> }).info
          return [whole, { envId, reset, calls: played, reward: info.cumulative_reward, outcome: 'unfinished' }]
        })
    })
    const script = [
      'import asyncio, json, sys',
      'from releaseops_verl.arena_session import ArenaSession, cumulative_reward, terminal_outcome',
      'async def main():',
      '    out = []',
      '    for episode in json.load(sys.stdin)["episodes"]:',
      '        async with ArenaSession(sys.argv[1] + "/envs/" + episode["envId"] + "/ws") as session:',
      '            last = await session.reset(episode["reset"])',
      '            for name, arguments in episode["calls"]:',
      '                last = await session.step(name, arguments)',
      '            out.append([cumulative_reward(last), terminal_outcome(last)])',
      '    print(json.dumps(out))',
      'asyncio.run(main())',
    ].join('\n')
    const health = async () =>
      (await (await fetch(`${server.url}/envs/releaseops-v3/health`)).json()) as {
        active_sessions: number
        sessions_closed: Record<string, number>
      }
    const before = await health()
    // Asynchronously: the server under test runs in this process.
    const result = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = spawn(testPython(), ['-c', script, server.url.replace('http', 'ws')], {
        env: { ...process.env, PYTHONPATH: join(repositoryRoot, 'python') },
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      child.on('close', () => resolve({ stdout, stderr }))
      child.stdin.end(JSON.stringify({ episodes }))
    })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual(episodes.map((episode) => [episode.reward, episode.outcome]))
    expect(episodes.some((episode) => episode.reward < 0)).toBe(true)
    expect(new Set(episodes.map((episode) => episode.outcome))).toEqual(new Set(['safe_ship', 'unsafe_ship', 'unfinished']))
    // Every session ended by OpenEnv's close message: counted as the client's close, none lost.
    const after = await health()
    expect(after.active_sessions).toBe(0)
    expect(after.sessions_closed.client_closed! - before.sessions_closed.client_closed!).toBe(episodes.length)
    expect(after.sessions_closed.connection_lost! - before.sessions_closed.connection_lost!).toBe(0)
  }, 120_000)
})
