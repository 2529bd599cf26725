/**
 * The TypeScript client against a live server: the env conformance suite runs through it, baseline
 * trajectories through the server are byte-identical to in-process ones, and it survives lost
 * connections (reconnect + replay), timeouts and a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EpisodeLostError, ServerError } from '../src/client/client-errors.js'
import { fetchEnvSpec } from '../src/client/fetch-env-spec.js'
import { connectEnv } from '../src/client/websocket-env.js'
import type { AnyEnv, EnvSpec, Observation, ResetParams } from '../src/core/env/env-api.js'
import { EnvRegistry } from '../src/core/registry/env-registry.js'
import { envConformanceCases } from '../src/core/testing/env-conformance.js'
import { toolParametersSchema } from '../src/core/tools/define-tool.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { ReleaseOpsV1Env, releaseOpsV1Spec } from '../src/envs/releaseops/v1/index.js'
import { parseServerOptions } from '../src/server/server-options.js'
import type { RunningServer } from '../src/server/start-server.js'
import { startServer } from '../src/server/start-server.js'
import { startTestServer } from './support/test-server.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
let server: RunningServer
let base: string
let remoteSpec: EnvSpec

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 64 })
  base = `${server.url}/envs/${envId}`
  remoteSpec = await fetchEnvSpec({ baseUrl: base, headers: {}, timeoutMs: 5000 })
})
afterAll(async () => {
  await server.close()
})

/** Plays a baseline policy and records every result and rendered text as JSON lines. */
async function transcript(env: AnyEnv, policyName: string, reset: ResetParams, id = envId): Promise<string[]> {
  const policy = policyRegistry.create(id, policyName)
  const lines: string[] = []
  const start = await env.reset(reset)
  lines.push(JSON.stringify(start), await env.render(start.observation))
  // Privileged policies (an oracle) read hidden state from the env they get: an in-process twin.
  const bound = makeEnv(id)
  bound.reset(reset)
  const episode = policy.start({ observation: start.observation as never, info: start.info, spec: env.spec, env: bound as never })
  let observation: Observation = start.observation
  for (;;) {
    const call = episode.act(observation as never)
    if (call === null) break
    const result = await env.step(call)
    lines.push(JSON.stringify(call), JSON.stringify(result), await env.render(result.observation))
    observation = result.observation
    if (result.terminated || result.truncated) break
  }
  lines.push(JSON.stringify(await env.state()))
  return lines
}

describe('TypeScript client: the env conformance suite through the server', () => {
  const resets = dataset
    .rows('train')
    .slice(0, 4)
    .map((row) => dataset.toResetParams(row))
  const cases = envConformanceCases({ createEnv: () => makeEnv(envId), resets })
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const clients: AnyEnv[] = []
      const remote = envConformanceCases({
        // The suite is synchronous about creation; connect lazily on first use.
        createEnv: () => {
          const lazy = lazyClient()
          clients.push(lazy)
          return lazy
        },
        resets,
      }).find((candidate) => candidate.name === testCase.name)!
      try {
        await remote.run()
      } finally {
        for (const client of clients) await client.close?.()
      }
    })
  }
})

/** An AsyncEnv that connects on its first call (the suite builds envs synchronously). */
function lazyClient(spec: EnvSpec = remoteSpec, baseUrl = base): AnyEnv {
  let connection: ReturnType<typeof connectEnv> | undefined
  const client = () => (connection ??= connectEnv({ baseUrl }))
  return {
    spec,
    reset: async (params) => (await client()).reset(params),
    step: async (call) => (await client()).step(call),
    render: async (observation) => (await client()).render(observation),
    state: async () => (await client()).state(),
    close: async () => {
      if (connection) await (await connection).close()
    },
  }
}

describe('every registered env through the server', () => {
  for (const id of envRegistry.ids()) {
    it(`${id}: conformance suite through the client, baseline trajectories byte-identical`, async () => {
      const registration = envRegistry.get(id)
      const url = `${server.url}/envs/${id}`
      const spec = await fetchEnvSpec({ baseUrl: url, headers: {}, timeoutMs: 5000 })
      const rows = registration.dataset?.rows(registration.dataset.splits[0] as string) ?? []
      const resets = rows.slice(0, 3).map((row) => registration.dataset!.toResetParams(row))
      const clients: AnyEnv[] = []
      const cases = envConformanceCases({
        createEnv: () => {
          const client = lazyClient(spec, url)
          clients.push(client)
          return client
        },
        resets,
        fuzzCalls: 2000,
      })
      try {
        for (const testCase of cases) await testCase.run()
      } finally {
        for (const client of clients) await client.close?.()
      }
      const env = await connectEnv({ baseUrl: url })
      for (const policyName of policyRegistry.names(id)) {
        for (const row of rows.slice(0, 8)) {
          const reset = registration.dataset!.toResetParams(row)
          const remote = await transcript(env, policyName, reset, id)
          const local = await transcript(makeEnv(id), policyName, reset, id)
          remote.pop()
          local.pop()
          expect(remote).toEqual(local)
        }
      }
      await env.close()
    })
  }
})

describe('TypeScript client: trajectories', () => {
  it('rebuilds the spec from /metadata: same tools, schemas and limits', async () => {
    const env = await connectEnv({ baseUrl: base })
    const local = makeEnv(envId).spec
    expect(env.spec.id).toBe(local.id)
    expect({ ...env.spec, tools: undefined }).toEqual({ ...local, tools: undefined })
    expect(env.spec.tools.map((tool) => [tool.name, tool.description, toolParametersSchema(tool)])).toEqual(
      local.tools.map((tool) => [tool.name, tool.description, toolParametersSchema(tool)]),
    )
    await env.close()
  })

  it('every baseline over the 50 eval rows: byte-identical to in-process', async () => {
    const env = await connectEnv({ baseUrl: base })
    let episodes = 0
    for (const policyName of policyRegistry.names(envId)) {
      for (const row of dataset.rows('eval')) {
        const reset = dataset.toResetParams(row)
        const remote = await transcript(env, policyName, reset)
        const local = await transcript(makeEnv(envId), policyName, reset)
        const remoteState = JSON.parse(remote.pop() as string)
        const localState = JSON.parse(local.pop() as string)
        expect(remote).toEqual(local)
        expect(remoteState).toEqual({ episode_id: null, step_count: remoteState.step_count, ...localState })
        episodes++
      }
    }
    expect(episodes).toBe(150)
    await env.close()
  })
})

describe('TypeScript client: failures', () => {
  it('reconnects after a lost connection and replays the episode, so the next step is as in-process', async () => {
    const env = await connectEnv({ baseUrl: base, reconnectInitialDelayMs: 10 })
    const local = makeEnv(envId)
    const reset = { seed: 8491, options: { family: 'green_ci_disabled_payment_test' } }
    await env.reset(reset)
    local.reset(reset)
    const calls = [
      { name: 'inspect_pr_diff', arguments: { pr_id: 'pr_482' } },
      { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
      { name: 'ask_worker', arguments: { worker_id: 'qa_triage', question_type: 'risk_summary' } },
    ]
    for (const [index, call] of calls.entries()) {
      if (index > 0) env.simulateConnectionLoss()
      expect(JSON.stringify(await env.step(call))).toBe(JSON.stringify(local.step(call)))
    }
    expect(env.reconnects).toBe(2)
    await env.close()
  })

  it('server errors keep their codes: step before reset is reset_needed', async () => {
    const env = await connectEnv({ baseUrl: base })
    const error = await env.step({ name: 'hold_release', arguments: {} }).catch((caught) => caught)
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ code: 'reset_needed', wireCode: 'EXECUTION_ERROR' })
    await expect(env.reset({ seed: 1, options: { family: 'nope' } })).rejects.toMatchObject({ code: 'invalid_reset_options' })
    await env.close()
  })

  it('a lost connection on a non-deterministic env, or a replay that differs, is episode_lost', async () => {
    const registry = new EnvRegistry()
    let instances = 0
    registry.register({
      spec: { ...releaseOpsV1Spec, id: 'coinflip-v1', deterministic: false },
      create: () => new ReleaseOpsV1Env(),
    })
    // Claims determinism but is not: every new instance shifts the seed, so a replay cannot match.
    registry.register({
      spec: { ...releaseOpsV1Spec, id: 'drifting-v1' },
      create: () => {
        const env = new ReleaseOpsV1Env()
        const shift = instances++
        return Object.assign(Object.create(env), {
          reset: (params: ResetParams = {}) => env.reset({ ...params, seed: (params.seed ?? 1) + shift }),
        })
      },
    })
    const special = await startServer({
      options: parseServerOptions({ port: 0, logLevel: 'silent' }),
      registry,
      registryDefaultEnvId: 'coinflip-v1',
    })
    try {
      for (const id of ['coinflip-v1', 'drifting-v1']) {
        const env = await connectEnv({ baseUrl: `${special.url}/envs/${id}`, reconnectInitialDelayMs: 5 })
        await env.reset({ seed: 3 })
        await env.step({ name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } })
        env.simulateConnectionLoss()
        await expect(env.step({ name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } })).rejects.toBeInstanceOf(
          EpisodeLostError,
        )
        expect((await env.reset({ seed: 3 })).info.step_count).toBe(0)
        await env.close()
      }
    } finally {
      await special.close()
    }
  })

  it('an unknown env fails at connect with unknown_env', async () => {
    await expect(connectEnv({ baseUrl: `${server.url}/envs/nope-v1` })).rejects.toMatchObject({ code: 'unknown_env' })
  })
})
