/**
 * Fixtures of the VeRL launch-path tests: the demo line's RL and trajectory releases, and a fake training
 * machine built in a temp dir: an installed `verl` package (version file, patched or unpatched sources,
 * dist-info), `vllm` dist-info and a `torch` module the real probe imports, a Python wrapper putting them
 * on the path, an `nvidia-smi` script, a checkpoint directory, and the declared patch list.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { qwen35ThinkTemplate } from '../src/chat/templates/qwen3-5-think-template.js'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { sha256Hex } from '../src/io/sha256.js'
import { demoLayout } from '../src/release/demo/write-demo-data.js'
import { loadGradingFromManifest, loadTaskFiles } from '../src/release/inputs/load-task-files.js'
import { runMixtureBuild } from '../src/release/mixtures/run-mixture-build.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { releaseRolloutSource } from '../src/release/rl/release-rollout-source.js'
import { runRlExport } from '../src/release/rl/run-rl-export.js'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import type { VerlRunSettingsInput } from '../src/train/verl/verl-run-settings.js'
import { runVerlConfig, type VerlConfig } from '../src/train/verl/write-verl-config.js'
import { type GateFixture, runGate, scriptedEndpoint } from './gate-fixture.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

export interface VerlReleases {
  root: string
  files: { registry: string; corpus: string; taskConfig: string; gradingManifest: string }
  rl: string
  /** The RL release as a one-dataset rl-cascade mixture: what an RLOO run trains on. */
  cascade: string
  trajectory: string
  thinkingTrajectory: string
}

/**
 * A real rollout gate report over the rl-cascade mixture's val split, two samples per prompt: a scripted
 * model right on one sample of two on `2 × rate` of the prompts (a nonzero rate of `rate`), over HTTP.
 */
export async function gateReport(
  releases: VerlReleases,
  options: { rate: number; path: string; modelRoot?: string },
): Promise<string> {
  const source = await releaseRolloutSource({ directory: releases.cascade, split: 'val', ...releases.files })
  const task = loadTaskFiles({
    ...releases.files,
    grading: loadGradingFromManifest({ manifest: releases.files.gradingManifest, dataset: demoDatasetName }),
  }).task
  const keys = source.rows.map((row) => row.key).sort()
  const fixture: GateFixture = { root: releases.root, release: releases.cascade, files: releases.files, task, source, keys }
  const alternate = options.rate === 0 ? 0 : Math.max(1, Math.round(2 * options.rate * keys.length))
  const server = await scriptedEndpoint({
    fixture,
    correct: new Set(),
    alternate: new Set(keys.slice(0, alternate)),
    modelRoot: options.modelRoot ?? '/models/gated-checkpoint',
  })
  try {
    const { report } = await runGate({ fixture, baseUrl: server.url })
    writeFileSync(options.path, JSON.stringify(report, null, 2))
  } finally {
    await server.close()
  }
  return options.path
}

export async function verlReleases(rows = 160): Promise<VerlReleases> {
  const root = temporaryDirectory('verl')
  const out = join(root, 'line')
  await runDemoPipeline({ out, rows })
  const demo = (relative: string) => join(out, 'demo', relative)
  const files = {
    registry: demo(demoLayout.registry),
    corpus: demo(demoLayout.corpus),
    taskConfig: demo(demoLayout.task),
    gradingManifest: demo(demoLayout.gradingManifest),
  }
  const canonical = join(out, 'run/canonical', demoDatasetName, 'all.json')
  const common = { dataset: demoDatasetName, ...files, canonical }
  const releases = {
    rl: join(root, 'rl'),
    trajectory: join(root, 'trajectory'),
    thinkingTrajectory: join(root, 'trajectory-think'),
  }
  await runRlExport({ ...common, outputDir: releases.rl })
  const cascade = join(root, 'rl-cascade')
  await runMixtureBuild({ family: 'rl-cascade', inputs: [`${demoDatasetName}=${releases.rl}`], ...files, outputDir: cascade })
  await runTrajectoryExport({ ...common, outputDir: releases.trajectory, thinkSource: 'none' })
  await runTrajectoryExport({ ...common, outputDir: releases.thinkingTrajectory, thinkSource: 'mock' })
  return { root, files, cascade, ...releases }
}

let runCount = 0

/** `verl config` for a fake machine's checkpoint and interpreter, into a fresh run directory. */
export async function configureRun(options: {
  releases: VerlReleases
  kind: 'sft' | 'rloo'
  release?: string
  machine: FakeMachine
  settings?: Partial<VerlRunSettingsInput>
}): Promise<{ run: string; config: VerlConfig }> {
  const run = join(temporaryDirectory('verl-run'), `run-${++runCount}`)
  const written = await runVerlConfig({
    release: options.release ?? (options.kind === 'sft' ? options.releases.trajectory : options.releases.cascade),
    outputDir: run,
    task: options.releases.files,
    settings: { kind: options.kind, model_path: options.machine.model, python: options.machine.python, ...options.settings },
  })
  return { run, config: written }
}

export const unpatchedSources = {
  'utils/tokenizer/chat_template.py':
    'def apply_chat_template(tokenizer, messages, **kwargs):\n    return tokenizer.apply_chat_template(messages, **kwargs)\n',
  'utils/dataset/multiturn_sft_dataset.py':
    'class MultiTurnSFTDataset:\n    def _render_message(self, message):\n        return message\n',
} as const

export const patchedSources: Record<keyof typeof unpatchedSources, string> = {
  'utils/tokenizer/chat_template.py': `${unpatchedSources['utils/tokenizer/chat_template.py']}# releaseops: insert the dummy user after a leading system message\n`,
  'utils/dataset/multiturn_sft_dataset.py': `${unpatchedSources['utils/dataset/multiturn_sft_dataset.py']}# releaseops: prefix-diff rendering + answer mask\n`,
}

/** Files of the fake installed tree behind `verlEntryImports` (packages and modules). */
export const trainerModules = [
  'verl/trainer/__init__.py',
  'verl/trainer/main_ppo.py',
  'verl/trainer/main_ppo_v0.py',
  'verl/trainer/sft_trainer.py',
  'verl/workers/__init__.py',
  'verl/workers/engine_workers.py',
  'verl/experimental/__init__.py',
  'verl/experimental/agent_loop/__init__.py',
  'vllm/__init__.py',
] as const

export interface FakeMachine {
  root: string
  site: string
  verlRoot: string
  python: string
  nvidiaSmi: string
  model: string
  patchList: string
  /** Rewrites one installed VeRL source file. */
  install(file: keyof typeof unpatchedSources, text: string): void
  setVersion(version: string): void
  setGpu(line: string | null): void
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

export function fakeMachine(options: { verl?: string; patched?: boolean } = {}): FakeMachine {
  const root = temporaryDirectory('verl-machine')
  const site = join(root, 'site-packages')
  const verlRoot = join(site, 'verl')
  const version = options.verl ?? '0.9.0'
  write(join(verlRoot, '__init__.py'), '')
  write(join(verlRoot, 'version', 'version'), `${version}\n`)
  write(join(site, `verl-${version}.dist-info`, 'METADATA'), `Metadata-Version: 2.1\nName: verl\nVersion: ${version}\n`)
  write(join(site, 'vllm-0.11.0.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: vllm\nVersion: 0.11.0\n')
  write(
    join(site, 'torch', '__init__.py'),
    "__version__ = '2.9.0+cu130'\nclass version:\n    cuda = '13.0'\nclass cuda:\n    @staticmethod\n    def is_available():\n        return True\n    @staticmethod\n    def device_count():\n        return 1\n",
  )
  for (const [file, text] of Object.entries(options.patched === false ? unpatchedSources : patchedSources))
    write(join(verlRoot, file), text)
  // The modules the trainers import (the probe imports them): empty stand-ins of VeRL's and vLLM's.
  for (const module of trainerModules) write(join(site, ...module.split('/')), '')
  const python = join(root, 'bin', 'python')
  write(python, `#!/bin/sh\nPYTHONPATH=${site}\${PYTHONPATH:+:$PYTHONPATH} PYTHONDONTWRITEBYTECODE=1 exec ${testPython()} "$@"\n`)
  chmodSync(python, 0o755)
  const nvidiaSmi = join(root, 'bin', 'nvidia-smi')
  const gpuFile = join(root, 'gpus.csv')
  write(gpuFile, 'NVIDIA H200, 143771, 570.86.15\n')
  write(nvidiaSmi, `#!/bin/sh\n[ -f ${gpuFile} ] || { echo 'NVIDIA-SMI has failed' >&2; exit 9; }\ncat ${gpuFile}\n`)
  chmodSync(nvidiaSmi, 0o755)
  const model = join(root, 'model')
  write(join(model, 'config.json'), '{"architectures": ["Qwen3_5ForCausalLM"]}\n')
  write(join(model, 'model.safetensors.index.json'), '{"weight_map": {"lm_head.weight": "model-00001-of-00001.safetensors"}}\n')
  write(join(model, 'tokenizer_config.json'), `${JSON.stringify({ chat_template: qwen35ThinkTemplate })}\n`)
  const patchList = join(root, 'patches.json')
  const hash = (text: string) => sha256Hex(text)
  write(
    patchList,
    JSON.stringify({
      format: 'releaseops-verl-patches-v1',
      verl_version: '0.9.0',
      patches: [
        {
          id: 'chat-template-system-first',
          required_for: ['sft'],
          files: [
            {
              path: 'utils/tokenizer/chat_template.py',
              sha256: hash(patchedSources['utils/tokenizer/chat_template.py']),
              unpatched_sha256: hash(unpatchedSources['utils/tokenizer/chat_template.py']),
            },
          ],
        },
        {
          id: 'multiturn-sft-prefix-diff',
          required_for: ['sft'],
          files: [
            {
              path: 'utils/dataset/multiturn_sft_dataset.py',
              sha256: hash(patchedSources['utils/dataset/multiturn_sft_dataset.py']),
              unpatched_sha256: hash(unpatchedSources['utils/dataset/multiturn_sft_dataset.py']),
            },
          ],
        },
      ],
    }),
  )
  return {
    root,
    site,
    verlRoot,
    python,
    nvidiaSmi,
    model,
    patchList,
    install: (file, text) => write(join(verlRoot, file), text),
    setVersion: (next) => write(join(verlRoot, 'version', 'version'), `${next}\n`),
    setGpu: (line) => (line === null ? rmSync(gpuFile, { force: true }) : write(gpuFile, `${line}\n`)),
  }
}
