/**
 * Issue 14, "must show": a model that never emits a parseable tool call scores a missed deadline (−0.6)
 * on releaseops-v3, not 0. `releaseops mock-llm` serves the evidence-heuristic policy speaking
 * json-tool-calls; `releaseops eval --base-url` parses its answers as qwen3, finds no tool call, and every
 * episode ends unfinished. The same mock parsed in its own format plays the policy (the wire works).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { envRegistry } from '../src/envs/index.js'
import { repositoryRoot, runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'releaseops-v3-no-tool-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGTERM')
})

async function mockLlm(args: string[]): Promise<{ url: string; model: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), 'mock-llm', ...args], {
    cwd: repositoryRoot,
  })
  children.push(child)
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done)
    child.once('exit', (code) => fail(new Error(`mock-llm exited with ${code}`)))
  })
  return JSON.parse(line) as { url: string; model: string }
}

describe('releaseops-v3: a model that emits no tool call', () => {
  it('scores −0.6 per episode through `releaseops eval --base-url`', async () => {
    const dataset = envRegistry.get('releaseops-v3').dataset!
    const rows = dataset.rows('eval').filter((_, index) => index % 25 === 0)
    const rowsPath = join(work, 'rows.jsonl')
    writeFileSync(rowsPath, rows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
    const common = ['--env', 'releaseops-v3', '--dataset', rowsPath]
    const mock = await mockLlm(['--policy', 'evidence-heuristic', '--format', 'json-tool-calls', ...common, '--no-usage'])
    const run = (mode: string, out: string) =>
      runCli(['eval', ...common, '--model', mock.model, '--base-url', mock.url, '--mode', mode, '--out', out, '--no-ceiling'])
    const silent = join(work, 'silent.json')
    const result = run('qwen3', silent)
    expect(result.status, result.stderr).toBe(0)
    const summary = JSON.parse(readFileSync(silent, 'utf8'))[mock.model].overall
    expect(summary).toMatchObject({ count: rows.length, avg_reward: -0.6, safe_ship_rate: 0, unsafe_ship_rate: 0 })
    const spoken = join(work, 'spoken.json')
    expect(run('json-tool-calls', spoken).status).toBe(0)
    expect(JSON.parse(readFileSync(spoken, 'utf8'))[mock.model].overall.avg_reward).toBeGreaterThan(0.3)
  }, 60_000)
})
