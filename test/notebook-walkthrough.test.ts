/**
 * notebooks/walkthrough.ipynb runs top to bottom, headless (nbclient, a python3 kernel), on this CPU
 * machine, as a reviewer runs it on a fresh Jupyter or Colab CPU runtime: every code cell executes
 * without an error, the ladder and replay plots are written (real PNGs, not blank), the ladder summary
 * holds every baseline on seen and held-out families, and the GPU-only cell says it is skipped where no
 * GPU is present (or writes its training plot where one is). The plots are kept under
 * outputs/test-screenshots/ to be looked at.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { imageFacts } from './train-support/browser.js'

const python = process.env.RELEASEOPS_NOTEBOOK_PYTHON ?? resolve(repositoryRoot, '.venv/bin/python')

interface Cell {
  cell_type: string
  metadata: { tags?: string[] }
  execution_count: number | null
  source: string[]
  outputs?: { output_type: string; name?: string; text?: string[]; data?: Record<string, unknown>; ename?: string }[]
}

const text = (cell: Cell) => (cell.outputs ?? []).flatMap((output) => output.text ?? []).join('')

describe('notebooks/walkthrough.ipynb', () => {
  it('executes end to end on CPU, with its plots', async () => {
    expect(existsSync(resolve(repositoryRoot, 'dist/cli/commands/serve-command.js')), 'run `npm run build` first').toBe(true)
    const probe = spawnSync(python, ['-c', 'import nbclient, nbformat, ipykernel, matplotlib'], { encoding: 'utf8' })
    expect(probe.status, `${python} lacks nbclient/ipykernel/matplotlib: run scripts/setup-python.sh\n${probe.stderr}`).toBe(0)
    const out = temporaryDirectory('notebook')
    const executed = join(out, 'executed.ipynb')
    const run = spawnSync(
      python,
      [
        resolve(repositoryRoot, 'notebooks/execute-notebook.py'),
        resolve(repositoryRoot, 'notebooks/walkthrough.ipynb'),
        executed,
        '240',
      ],
      { cwd: repositoryRoot, encoding: 'utf8', env: { ...process.env, RELEASEOPS_NOTEBOOK_OUT: out }, timeout: 280_000 },
    )
    expect(run.status, run.stderr.slice(-3000)).toBe(0)

    const cells = (JSON.parse(readFileSync(executed, 'utf8')) as { cells: Cell[] }).cells.filter(
      (cell) => cell.cell_type === 'code',
    )
    expect(cells.length).toBe(7)
    for (const cell of cells) {
      expect(cell.execution_count, cell.source[0]).not.toBeNull()
      expect(
        (cell.outputs ?? []).filter((output) => output.output_type === 'error').map((output) => output.ename),
        cell.source[0],
      ).toEqual([])
    }
    const images = cells.flatMap((cell) => (cell.outputs ?? []).filter((output) => output.data?.['image/png']))
    expect(images.length).toBeGreaterThanOrEqual(2)

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, { by_split: object }>
    for (const policy of ['naive', 'rule', 'phase-aware-rule', 'evidence-heuristic', 'dissent-first-reader']) {
      expect(Object.keys(summary[policy]?.by_split ?? {}).sort(), policy).toEqual(['eval_seen', 'eval_unseen'])
    }
    expect(text(cells[2] as Cell)).toMatch(/done: True · end: \w+ · total reward -?\d/)
    expect(text(cells[4] as Cell)).toMatch(/eval_unseen\): \d+ steps, end \w+/)

    const gpu = cells.find((cell) => cell.metadata.tags?.includes('gpu')) as Cell
    const hasGpu = spawnSync('nvidia-smi', ['-L']).status === 0
    const plots = ['ladder.png', 'replay.png', ...(hasGpu ? ['grpo.png'] : [])]
    if (!hasGpu) expect(text(gpu)).toContain('SKIPPED (GPU runtime only): no GPU here.')
    const kept = resolve(repositoryRoot, 'outputs', 'test-screenshots')
    mkdirSync(kept, { recursive: true })
    for (const plot of plots) {
      const facts = await imageFacts(readFileSync(join(out, plot)), 11)
      expect(facts.width, plot).toBeGreaterThan(600)
      expect(facts.colors, plot).toBeGreaterThan(20)
      copyFileSync(join(out, plot), join(kept, `notebook-${plot}`))
    }
  }, 300_000)
})
