/**
 * The same parity for every other registered env (releaseops-v2, grading-v1, …): each of its policies,
 * played by the scripted model over loopback HTTP (native tool calls, and XML text for one policy), ends
 * every episode exactly as the policy played in process. Nothing here is specific to one env.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { ModelMode } from '../src/agent/chat-model.js'
import { modelAgent } from '../src/agent/model-agent.js'
import { OpenAiCompatibleModel } from '../src/agent/openai-compatible-model.js'
import { runEpisode } from '../src/agent/run-episode.js'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'

const rowsPerEnv = 20
const servers: MockOpenAiServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

const envIds = envRegistry
  .ids()
  .filter((id) => id !== 'releaseops-v1' && envRegistry.get(id).dataset && policyRegistry.names(id).length > 0)

describe.each(envIds)('%s over HTTP equals in process', (envId) => {
  const dataset = envRegistry.get(envId).dataset!
  const split = dataset.splits.includes('eval') ? 'eval' : (dataset.splits.at(-1) as string)
  const rows = dataset.rows(split).slice(0, rowsPerEnv)
  const policies = policyRegistry.names(envId)

  for (const [index, policy] of policies.entries()) {
    const modes: ModelMode[] = index === 0 ? ['native', 'qwen3.5'] : ['native']
    for (const mode of modes) {
      it(`${policy} (${mode}) on ${rows.length} ${split} rows`, async () => {
        const scripted = new ScriptedPolicyModel({ envId, policy, rows, envs: envRegistry, policies: policyRegistry })
        const server = await startMockOpenAiServer({ model: scripted, format: mode === 'native' ? 'qwen3' : 'qwen3.5' })
        servers.push(server)
        const agent = modelAgent(new OpenAiCompatibleModel({ baseUrl: server.url, model: server.modelName, mode }))
        const env = makeEnv(envId)
        for (const [rowIndex, row] of rows.entries()) {
          const reset = dataset.toResetParams(row)
          const expected = runPolicyEpisode({ env, policy: policyRegistry.create(envId, policy), reset, recordSteps: true })
          const result = await runEpisode({ env, agent, reset, prompt: row.prompt })
          expect(result.fault, `row ${rowIndex}`).toBeUndefined()
          expect(
            { reward: result.reward, info: result.info, calls: result.steps.map((step) => step.call) },
            `row ${rowIndex}`,
          ).toEqual({
            reward: expected.reward,
            info: expected.info,
            calls: (expected.steps ?? []).map((step) => step.call),
          })
          expect(result.terminated).toBe(expected.terminated)
        }
      })
    }
  }
})
