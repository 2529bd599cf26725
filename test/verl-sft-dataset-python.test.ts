/**
 * The trajectory SFT dataset class (`python/releaseops_verl/verl_sft_dataset.py`, VeRL's `data.custom_cls`)
 * under the RL Python (`.venv-rl`: torch, transformers, pyarrow; no VeRL) with the official Qwen3, Qwen3.5
 * think and Qwen3.5 no-think templates TRL ships: every row's ids are the template's full render and the
 * loss mask covers exactly the assistant turns (thinking on and off, multi-tool and no-result rows). The
 * same class inside stock VeRL 0.9 is `scripts/acceptance/verl.sh`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const python = process.env.RELEASEOPS_TRAIN_PYTHON ?? resolve(root, '.venv-rl', 'bin', 'python')

describe('TrajectorySFTDataset under the RL Python', () => {
  it('passes every unittest with the official templates', () => {
    if (!existsSync(python)) throw new Error(`No RL Python at ${python}: run \`bash scripts/setup-rl-python.sh\` (CI does).`)
    const result = spawnSync(python, ['-m', 'unittest', '-v', 'tests_verl_sft.test_sft_dataset'], {
      cwd: resolve(root, 'python'),
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 120_000,
    })
    const output = `${result.stdout}${result.stderr}`
    expect(result.status, output).toBe(0)
    expect(output).toMatch(/Ran 7 tests/)
    expect(output).toMatch(/test_every_row_matches_the_official_render_for_each_family .*\.\.\. ok/)
  }, 150_000)
})
