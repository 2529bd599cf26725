/**
 * The model endpoint the eval-job tests evaluate: the scripted model playing phase-aware-rule on the
 * first `rows` releaseops-v2 eval rows, behind a real OpenAI-compatible server (qwen3 format).
 */

import { type MockOpenAiServer, startMockOpenAiServer } from '../../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../../src/agent/scripted/scripted-policy-model.js'
import type { DatasetRow } from '../../src/core/env/env-dataset.js'
import { envRegistry, policyRegistry } from '../../src/envs/index.js'

export async function phaseAwareEndpoint(rowCount: number): Promise<{ rows: DatasetRow[]; endpoint: MockOpenAiServer }> {
  const rows = envRegistry.get('releaseops-v2').dataset?.rows('eval').slice(0, rowCount) ?? []
  const model = new ScriptedPolicyModel({
    envId: 'releaseops-v2',
    policy: 'phase-aware-rule',
    rows,
    envs: envRegistry,
    policies: policyRegistry,
  })
  const endpoint = await startMockOpenAiServer({ model, format: 'qwen3', modelName: 'scripted-phase-aware' })
  return { rows, endpoint }
}
