/**
 * The trainer's Python pieces under the RL Python (`.venv-rl`, made by scripts/setup-rl-python.sh, which
 * CI runs): best checkpoint by mean reward (and by loss), the refusal of a TRL without environment_factory
 * (exit 3) or older than 1.8, the GPU options (paged 8-bit AdamW, bf16, checkpointing) a CUDA host gets,
 * dataset checks, JSON-safe log rows. The full GRPO run is `releaseops train smoke` (a CI step).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const python = process.env.RELEASEOPS_TRAIN_PYTHON ?? resolve(root, '.venv-rl', 'bin', 'python')

describe('python/tests_train under the RL Python', () => {
  it('passes every unittest', () => {
    if (!existsSync(python)) throw new Error(`No RL Python at ${python}: run \`bash scripts/setup-rl-python.sh\` (CI does).`)
    const result = spawnSync(python, ['-m', 'unittest', '-v', 'tests_train.test_trainer_pieces'], {
      cwd: resolve(root, 'python'),
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', TRL_EXPERIMENTAL_SILENCE: '1' },
      timeout: 420_000,
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(output).toMatch(/Ran 22 tests/)
    expect(output).toMatch(/test_train_grpo_exits_3_on_an_old_trl_before_loading_anything .*\.\.\. ok/)
  }, 480_000)
})
