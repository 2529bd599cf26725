/**
 * The SFT launch plan's gate step run for real: `gate.sh` (written by `verl preflight`) starts `vllm serve`
 * in the background (here test/support/mock-vllm.ts first on PATH: vLLM's arguments, a server that never
 * returns, `/v1/models` naming adapter and base), waits for `/v1/models`, runs `releaseops gate rollout`
 * with the family's `--mode`, stops the server; the RLOO preflight then reads the report it wrote.
 * Qwen3 (hermes, `--mode qwen3`) and Qwen3.5 (`--mode qwen3.5`).
 */
import { spawn } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { qwen35ThinkTemplate } from '../src/chat/templates/qwen3-5-think-template.js'
import { qwen3Template } from '../src/chat/templates/qwen3-template.js'
import { runVerlPreflight } from '../src/train/verl/run-verl-preflight.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { configureRun, fakeMachine, type VerlReleases, verlReleases } from './verl-fixture.js'

let releases: VerlReleases
let bin: string

beforeAll(async () => {
  releases = await verlReleases()
  bin = temporaryDirectory('verl-gate-bin')
  const tsx = (entry: string) => `#!/bin/sh\nexec ${process.execPath} --import tsx ${join(repositoryRoot, entry)} "$@"\n`
  writeFileSync(join(bin, 'vllm'), tsx('test/support/mock-vllm.ts'))
  writeFileSync(join(bin, 'releaseops'), tsx('src/cli/run.ts'))
  chmodSync(join(bin, 'vllm'), 0o755)
  chmodSync(join(bin, 'releaseops'), 0o755)
}, 180_000)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function runScript(script: string, env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', [script], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('close', (status) => resolve({ status, stderr }))
  })
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the launch plan gate step', () => {
  for (const [family, template] of [
    ['qwen3', qwen3Template],
    ['qwen3.5', qwen35ThinkTemplate],
  ] as const) {
    it(`${family}: vLLM in the background, wait for /v1/models, gate with --mode ${family}, stop; RLOO preflight reads the report`, async () => {
      const machine = fakeMachine()
      writeFileSync(join(machine.model, 'tokenizer_config.json'), `${JSON.stringify({ chat_template: template })}\n`)
      const { run } = await configureRun({ releases, kind: 'sft', machine })
      const sft = await runVerlPreflight({ runDirectory: run, nvidiaSmi: machine.nvidiaSmi, host: { minGpuMemoryGib: 80 } })
      expect(sft.failed).toEqual([])
      const gate = sft.plan?.find((step) => step.name === 'gate')
      expect(gate?.command).toBe(`RL_RELEASE=<rl-cascade release> GRADING_MANIFEST=<file> sh ${join(run, 'gate.sh')}`)
      const script = readFileSync(join(run, 'gate.sh'), 'utf8')
      expect(script).toContain(`--mode ${family}`)
      expect(script).toMatch(/>"\$run\/gate-vllm\.log" 2>&1 &\nserver=\$!/)

      // What the merge step leaves: the base weights (with the family's template) and the adapter.
      const merged = join(run, 'merged')
      mkdirSync(join(merged, 'lora_adapter'), { recursive: true })
      for (const file of ['config.json', 'model.safetensors.index.json', 'tokenizer_config.json'])
        copyFileSync(join(machine.model, file), join(merged, file))
      writeFileSync(join(merged, 'lora_adapter', 'adapter_config.json'), '{"r": 8}\n')

      const log = join(run, 'mock-vllm.jsonl')
      const result = await runScript(join(run, 'gate.sh'), {
        PATH: `${bin}:${process.env.PATH}`,
        RL_RELEASE: releases.cascade,
        GRADING_MANIFEST: releases.files.gradingManifest,
        VLLM_PORT: String(await freePort()),
        MOCK_VLLM_TASK: JSON.stringify({
          registry: releases.files.registry,
          corpus: releases.files.corpus,
          taskConfig: releases.files.taskConfig,
        }),
        MOCK_VLLM_LOG: log,
      })
      expect(result.stderr).not.toMatch(/vllm serve (exited|did not answer)/)
      expect(result.status).toBe(0)
      const starts = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(starts).toHaveLength(1)
      expect(starts[0].format).toBe(family)
      expect(starts[0].args).toEqual(
        expect.arrayContaining(['--enable-lora', '--lora-modules', `sft-run=${join(merged, 'lora_adapter')}`]),
      )
      expect(alive(starts[0].pid)).toBe(false)

      const report = JSON.parse(readFileSync(join(run, 'gate.json'), 'utf8'))
      expect(report.passed).toBe(true)
      expect(report.model.mode).toBe(family)
      expect(report.chat.mode).toBe(family)
      expect(report.model.served).toMatchObject({ root: join(merged, 'lora_adapter'), parent: merged })

      const rloo = await configureRun({
        releases,
        kind: 'rloo',
        machine: { ...machine, model: merged },
        settings: { lora_adapter_path: join(merged, 'lora_adapter') },
      })
      const manifest = await runVerlPreflight({
        runDirectory: rloo.run,
        nvidiaSmi: machine.nvidiaSmi,
        host: { minGpuMemoryGib: 80 },
        gateReport: join(run, 'gate.json'),
      })
      expect(manifest.checks.find((check) => check.name === 'rollout_gate')?.passed).toBe(true)
      expect(manifest.failed).toEqual([])
    }, 300_000)
  }
})
