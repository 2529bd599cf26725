/**
 * Shared setup of the rollout-gate tests: the demo release line run once (canonical → RL release), the
 * release's val split as gate rows, and a scripted model of chosen accuracy served over real HTTP by the
 * scripted OpenAI-compatible server, answering in text as a model does.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { ModelMode } from '../src/agent/chat-model.js'
import { OpenAiCompatibleModel } from '../src/agent/openai-compatible-model.js'
import type { FaultPlan } from '../src/agent/scripted/fault-plan.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import type { Policy } from '../src/core/policy/policy.js'
import { PolicyRegistry } from '../src/core/registry/policy-registry.js'
import { toOpenAiTool } from '../src/core/tools/define-tool.js'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { finalResponseAction, type GradingObservation, gradingV1Spec } from '../src/envs/grading/grading-env.js'
import type { GradingTask } from '../src/envs/grading/grading-task.js'
import { gradingGateProfile } from '../src/eval/gate/gate-reasons.js'
import { runRolloutGate } from '../src/eval/gate/run-rollout-gate.js'
import { FinalTextScriptedModel, scriptedAccuracyPolicy } from '../src/eval/gate/scripted-gate-model.js'
import { verlVisibleTools } from '../src/eval/gate/verl-visible-tools.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { loadGradingFromManifest, loadTaskFiles } from '../src/release/inputs/load-task-files.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { releaseReplayEnvs } from '../src/release/rl/release-replay-envs.js'
import { releaseRolloutSource } from '../src/release/rl/release-rollout-source.js'
import { runRlExport } from '../src/release/rl/run-rl-export.js'
import { temporaryDirectory } from './support/release-fixture.js'

export interface GateFixture {
  root: string
  release: string
  files: { registry: string; corpus: string; taskConfig: string; gradingManifest: string }
  task: GradingTask
  source: Awaited<ReturnType<typeof releaseRolloutSource>>
  /** Val source ids in a fixed pseudo-random order (sha256), to pick "correct" sets from. */
  keys: string[]
}

export async function gateFixture(rows = 300): Promise<GateFixture> {
  const root = temporaryDirectory('gate')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows })
  const demo = (relative: string) => join(out, 'demo', relative)
  const files = {
    registry: demo(demoLayout.registry),
    corpus: demo(demoLayout.corpus),
    taskConfig: demo(demoLayout.task),
    gradingManifest: demo(demoLayout.gradingManifest),
  }
  const release = join(root, 'rl')
  await runRlExport({
    dataset: demoDatasetName,
    ...files,
    canonical: join(out, 'run/canonical', demoDatasetName, 'all.json'),
    outputDir: release,
  })
  const source = await releaseRolloutSource({ directory: release, split: 'val', ...files })
  const task = loadTaskFiles({
    ...files,
    grading: loadGradingFromManifest({ manifest: files.gradingManifest, dataset: demoDatasetName }),
  }).task
  const hash = (text: string) => createHash('sha256').update(text).digest('hex')
  const keys = source.rows.map((row) => row.key).sort((left, right) => (hash(left) < hash(right) ? -1 : 1))
  return { root, release, files, task, source, keys }
}

/** Any grading policy as a scripted model over HTTP, answering in text as a model does. */
export async function policyEndpoint(options: {
  fixture: GateFixture
  create: () => Policy<GradingObservation>
  format?: 'qwen3.5' | 'qwen3' | 'qwen3.5-nothink'
  faults?: FaultPlan
  modelRoot?: string
}): Promise<MockOpenAiServer> {
  const { rows, envs } = releaseReplayEnvs({ source: options.fixture.source, split: 'val' })
  const policies = new PolicyRegistry()
  policies.register(gradingV1Spec.id, {
    name: 'scripted',
    description: 'a gate test model',
    privileged: true,
    create: options.create as never,
  })
  const model = new FinalTextScriptedModel({ envId: gradingV1Spec.id, policy: 'scripted', rows, envs, policies })
  return startMockOpenAiServer({
    model,
    format: options.format ?? 'qwen3.5',
    modelName: 'scripted-grader',
    ...(options.modelRoot ? { modelRoot: options.modelRoot } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  })
}

/**
 * A scripted model getting `correct` right (and `malformed` as non-JSON text), and `alternate` right on
 * every other sample (a sampled model's mixed prompts), served over HTTP.
 */
export async function scriptedEndpoint(options: {
  fixture: GateFixture
  correct: ReadonlySet<string>
  malformed?: ReadonlySet<string>
  alternate?: ReadonlySet<string>
  format?: 'qwen3.5' | 'qwen3'
  faults?: FaultPlan
  modelRoot?: string
}): Promise<MockOpenAiServer> {
  const answered = new Map<string, number>()
  return policyEndpoint({
    ...options,
    create: () =>
      scriptedAccuracyPolicy({
        task: options.fixture.task,
        correct: options.correct,
        toolCalls: 2,
        ...(options.malformed ? { malformed: options.malformed } : {}),
        ...(options.alternate ? { alternate: { sources: options.alternate, answered } } : {}),
      }),
  })
}

export function runGate(options: {
  fixture: GateFixture
  baseUrl: string
  mode?: ModelMode
  samples?: number
  concurrency?: number
  limit?: number
  retries?: number
}) {
  const { fixture } = options
  const full = gradingV1Spec.tools.map((tool) => toOpenAiTool(tool))
  const model = new OpenAiCompatibleModel({
    baseUrl: options.baseUrl,
    model: 'scripted-grader',
    mode: options.mode ?? 'qwen3.5',
    enableThinking: false,
    timeoutMs: 5000,
    retry: { maxAttempts: (options.retries ?? 1) + 1, initialDelayMs: 1, maxDelayMs: 2 },
  })
  const rows = options.limit === undefined ? fixture.source.rows : fixture.source.rows.slice(0, options.limit)
  const samples = options.samples ?? 2
  return runRolloutGate({
    rows,
    samples,
    createEnv: fixture.source.createEnv,
    model,
    endpoint: { baseUrl: options.baseUrl },
    loop: { maxTurns: 4, maxToolCallsPerTurn: 1, finalAction: finalResponseAction },
    tools: { schemas: verlVisibleTools(full), kind: 'verl', names: full.map((tool) => tool.function.name) },
    concurrency: options.concurrency ?? 4,
    keepTrajectories: true,
    context: {
      envId: gradingV1Spec.id,
      maxEpisodeSteps: 4,
      release: fixture.source.release,
      chat: { trajectory_format: 'qwen3.5-native-tools-v2', mode: options.mode ?? 'qwen3.5', parser: 'test' },
      loop: { max_assistant_turns: 4, max_user_turns: 3, max_parallel_calls: 1 },
      thinking: { enable_thinking: false },
      limits: { rows: rows.length, samples, limit: options.limit ?? null, concurrency: options.concurrency ?? 4 },
      bounds: { lower: 0.05, upper: 0.3 },
      profile: gradingGateProfile,
      labels: rows.map((row) => row.label as string),
    },
  })
}
