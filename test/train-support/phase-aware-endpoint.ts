/**
 * The model endpoint the eval-job tests evaluate: the scripted model playing phase-aware-rule on the
 * `rows` releaseops-v2 eval rows a job with `max_rows: rows` plays (spread over the slices), behind a real
 * OpenAI-compatible server (qwen3 format).
 */

import { type MockOpenAiServer, startMockOpenAiServer } from '../../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../../src/agent/scripted/scripted-policy-model.js'
import type { DatasetRow } from '../../src/core/env/env-dataset.js'
import { envRegistry, policyRegistry } from '../../src/envs/index.js'
import { stratifiedRows } from '../../src/eval/stratified-rows.js'

export async function phaseAwareEndpoint(rowCount: number): Promise<{ rows: DatasetRow[]; endpoint: MockOpenAiServer }> {
  const dataset = envRegistry.get('releaseops-v2').dataset!
  const rows = stratifiedRows(dataset.rows('eval'), rowCount, dataset.groupBy)
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
