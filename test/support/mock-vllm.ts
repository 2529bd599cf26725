/**
 * A stand-in for `vllm serve` (a test double of the model server, put first on PATH as `vllm`): it takes
 * vLLM's own arguments (`serve <checkpoint> [--enable-lora --lora-modules name=adapter | --served-model-name
 * name] --host H --port P`), serves an OpenAI-compatible endpoint there that never returns until killed,
 * names the checkpoint in `/v1/models` as vLLM does (a LoRA module: `root` the adapter, `parent` the base),
 * and speaks the chat format of the checkpoint's own template. Its "model" answers a chosen share of the
 * RL release's val episodes right (MOCK_VLLM_RATE), on every other sample of a prompt. Each start is appended to MOCK_VLLM_LOG as one JSON line.
 */
import { appendFileSync } from 'node:fs'
import { startMockOpenAiServer } from '../../src/agent/scripted/mock-openai-server.js'
import { PolicyRegistry } from '../../src/core/registry/policy-registry.js'
import { demoDatasetName } from '../../src/envs/grading/demo/demo-taxonomy.js'
import { gradingV1Spec } from '../../src/envs/grading/grading-env.js'
import { FinalTextScriptedModel, scriptedAccuracyPolicy } from '../../src/eval/gate/scripted-gate-model.js'
import { loadGradingFromManifest, loadTaskFiles } from '../../src/release/inputs/load-task-files.js'
import { releaseReplayEnvs } from '../../src/release/rl/release-replay-envs.js'
import { releaseRolloutSource } from '../../src/release/rl/release-rollout-source.js'
import { detectModelFamily, modelFamilyFacts } from '../../src/train/verl/model-family.js'

function flag(args: string[], name: string): string | undefined {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args[0] !== 'serve' || !args[1]) throw new Error(`mock vllm: expected \`vllm serve <model> …\`, got ${args.join(' ')}`)
  const checkpoint = args[1]
  const lora = flag(args, '--lora-modules')
  const [loraName, adapter] = lora ? (lora.split('=') as [string, string]) : []
  if (lora && !args.includes('--enable-lora')) throw new Error('mock vllm: --lora-modules needs --enable-lora')
  const name = loraName ?? flag(args, '--served-model-name') ?? checkpoint
  const family = detectModelFamily(checkpoint)
  if (family === null) throw new Error(`mock vllm: ${checkpoint} ships no chat template of a known family`)
  const files = JSON.parse(process.env.MOCK_VLLM_TASK ?? '{}') as { registry: string; corpus: string; taskConfig: string }
  const gradingManifest = process.env.GRADING_MANIFEST as string
  const source = await releaseRolloutSource({
    directory: process.env.RL_RELEASE as string,
    split: 'val',
    ...files,
    gradingManifest,
  })
  const task = loadTaskFiles({
    ...files,
    grading: loadGradingFromManifest({ manifest: gradingManifest, dataset: demoDatasetName }),
  }).task
  const keys = source.rows.map((row) => row.key).sort()
  // A sampled model: right on every other sample of twice the rate's share of prompts (mixed prompts).
  const rate = Number(process.env.MOCK_VLLM_RATE ?? '0.15')
  const alternate = { sources: new Set(keys.slice(0, Math.round(2 * rate * keys.length))), answered: new Map<string, number>() }
  const policies = new PolicyRegistry()
  policies.register(gradingV1Spec.id, {
    name: 'scripted-accuracy',
    description: 'answers a chosen share of samples correctly',
    privileged: true,
    create: () => scriptedAccuracyPolicy({ task, correct: new Set(), toolCalls: 2, alternate }) as never,
  })
  const { rows, envs } = releaseReplayEnvs({ source, split: 'val' })
  const model = new FinalTextScriptedModel({ envId: gradingV1Spec.id, policy: 'scripted-accuracy', rows, envs, policies })
  const server = await startMockOpenAiServer({
    model,
    format: modelFamilyFacts[family].chat_format,
    modelName: name,
    modelRoot: adapter ?? checkpoint,
    ...(adapter ? { modelParent: checkpoint } : {}),
    host: flag(args, '--host') ?? '127.0.0.1',
    port: Number(flag(args, '--port') ?? 8000),
  })
  if (process.env.MOCK_VLLM_LOG)
    appendFileSync(process.env.MOCK_VLLM_LOG, `${JSON.stringify({ pid: process.pid, args, format: family, url: server.url })}\n`)
  const stop = () => void server.close().then(() => process.exit(0))
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
