/**
 * The CLI end to end: `releaseops mock-llm` serves a scripted policy in a child process; `releaseops eval
 * --model … --base-url …` evaluates it, resumes after infrastructure failures, and `eval compare` pairs it
 * with the in-process baselines. `chat render|parse|tokens` and the coded errors of bad input.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { repositoryRoot, runCli } from './support/run-cli.js'

const work = mkdtempSync(join(tmpdir(), 'releaseops-llm-cli-'))
const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill('SIGTERM')
})

async function mockLlm(args: string[]): Promise<{ url: string; model: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), 'mock-llm', ...args], {
    cwd: repositoryRoot,
  })
  children.push(child)
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done)
    child.once('exit', (code) => fail(new Error(`mock-llm exited with ${code}`)))
  })
  return { ...(JSON.parse(line) as { url: string; model: string }), child }
}

const v1 = ['--env', 'releaseops-v1', '--dataset', 'eval']

describe('releaseops eval with a model', () => {
  it('evaluates the scripted model over HTTP, resumes after infrastructure failures, and compares with baselines', async () => {
    const failing = await mockLlm([
      '--policy',
      'phase-aware-rule',
      '--format',
      'qwen3.5',
      ...v1,
      '--no-usage',
      '--faults',
      '500:1',
    ])
    const out = join(work, 'model.json')
    const args = [
      'eval',
      ...v1,
      '--model',
      failing.model,
      '--mode',
      'qwen3.5',
      '--out',
      out,
      '--retries',
      '1',
      '--concurrency',
      '4',
    ]
    const broken = runCli([...args, '--base-url', failing.url])
    expect(broken.status, broken.stderr).toBe(3)
    expect(broken.stderr).toContain('50 episode(s) are unscored')
    failing.child.kill('SIGTERM')

    const healthy = await mockLlm(['--policy', 'phase-aware-rule', '--format', 'qwen3.5', ...v1, '--no-usage', '--reasoning'])
    const resumed = runCli([...args, '--base-url', healthy.url, '--resume'])
    expect(resumed.status, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain('50 episode(s) run, 0 resumed')
    expect(resumed.stdout).toMatch(/scripted-phase-aware-rule\s+overall\s+50\s+0\.312\s+0\.560/)
    expect(resumed.stdout).toContain('latency ms p50')
    const summary = JSON.parse(readFileSync(out, 'utf8'))['scripted-phase-aware-rule']
    expect(summary.run).toMatchObject({
      env_id: 'releaseops-v1',
      samples: 1,
      episodes: 50,
      unscored: 0,
      episodes_path: 'model.episodes.jsonl',
      model: { mode: 'qwen3.5' },
    })
    expect(summary.overall.llm).toMatchObject({ scored: 50, infra_errors: 0, repaired_actions: 0 })

    const again = runCli([...args, '--base-url', healthy.url, '--resume'])
    expect(again.stderr).toContain('0 episode(s) run, 50 resumed')

    const baselines = join(work, 'baselines.json')
    expect(runCli(['eval', ...v1, '--out', baselines, '--episodes-out', join(work, 'baselines.jsonl')]).status).toBe(0)
    const same = runCli([
      'eval',
      'compare',
      `${baselines}#phase-aware-rule`,
      out,
      '--out',
      join(work, 'same.json'),
      '--resamples',
      '2000',
    ])
    expect(same.status, same.stderr).toBe(0)
    const sameJson = JSON.parse(readFileSync(join(work, 'same.json'), 'utf8'))
    expect(sameJson.pairs).toBe(50)
    for (const metric of sameJson.slices[0].metrics) {
      if (
        ['avg_repaired_actions', 'avg_parse_issues', 'avg_turns', 'avg_prompt_tokens', 'avg_completion_tokens'].includes(
          metric.metric,
        )
      )
        continue
      expect(metric.diff, metric.metric).toBe(0)
      if (metric.mcnemar) expect(metric.mcnemar.p_value).toBe(1)
    }
    const better = runCli([
      'eval',
      'compare',
      join(work, 'baselines.jsonl#naive'),
      out,
      '--out',
      join(work, 'better.json'),
      '--metrics',
      'safe_ship_rate,avg_reward',
    ])
    expect(better.status, better.stderr).toBe(0)
    expect(better.stdout).toMatch(/overall\s+safe_ship_rate\s+50\s+0\.040\s+0\.560\s+\+0\.520/)
    const safe = JSON.parse(readFileSync(join(work, 'better.json'), 'utf8')).slices[0].metrics.find(
      (metric: { metric: string }) => metric.metric === 'safe_ship_rate',
    )
    expect(safe.ci95[0]).toBeGreaterThan(0.3)
    expect(safe.mcnemar).toMatchObject({ a_only: 0, b_only: 26 })
    expect(safe.mcnemar.p_value).toBeLessThan(1e-6)
    const ambiguous = runCli(['eval', 'compare', join(work, 'baselines.jsonl'), out])
    expect(ambiguous.status).toBe(2)
    expect(ambiguous.stderr).toContain('error[ambiguous_policy]')
  })

  it('rejects incomplete or conflicting model options with coded errors', () => {
    expect(runCli(['eval', ...v1, '--model', 'x']).stderr).toContain('error[missing_model]')
    expect(runCli(['eval', ...v1, '--model', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--policy', 'naive']).stderr).toContain(
      'error[policy_and_model]',
    )
    expect(runCli(['eval', ...v1, '--gguf', join(work, 'missing.gguf'), '--mode', 'qwen3']).stderr).toContain(
      'error[gguf_not_found]',
    )
    const file = join(work, 'tiny.gguf')
    writeFileSync(file, 'GGUF')
    const gguf = runCli(['eval', ...v1, '--gguf', file, '--mode', 'qwen3'])
    expect(gguf.status).toBe(2)
    expect(gguf.stderr).toContain('error[optional_dependency_missing]')
    expect(gguf.stderr).toContain('npm install node-llama-cpp@3.21.1')
    expect(runCli(['eval', ...v1, '--model', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--mode', 'qwen4']).stderr).toContain(
      'Allowed choices',
    )
  })
})

describe('releaseops chat', () => {
  const goldens = JSON.parse(readFileSync(resolve(repositoryRoot, 'src/chat/__fixtures__/template-goldens.json'), 'utf8'))

  it('render writes the official template render byte for byte', () => {
    for (const [format, key] of [
      ['qwen3', 'qwen3'],
      ['qwen3.5', 'qwen3.5'],
      ['qwen3.5-nothink', 'qwen3.5-nothink'],
    ] as const) {
      const index = goldens.renders[key].findIndex((item: { text?: string }) => item.text !== undefined && item.text.length > 0)
      const item = goldens.conversations[index]
      const result = runCli(['chat', 'render', '--format', format], {
        input: JSON.stringify({
          messages: item.messages,
          tools: item.tools,
          add_generation_prompt: item.add_generation_prompt,
          enable_thinking: item.enable_thinking,
        }),
      })
      expect(result.status, result.stderr).toBe(0)
      expect(result.stdout).toBe(goldens.renders[key][index].text)
    }
  })

  it('render rejects a bad request with its path', () => {
    const result = runCli(['chat', 'render', '--format', 'qwen3'], {
      input: JSON.stringify({ messages: [{ role: 'critic', content: 1 }] }),
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[invalid_render_request]')
    expect(result.stdout).toBe('')
  })

  it('parse types values by the env tools and reports issues', () => {
    const text =
      '<think>\nCheck the PR.\n</think>\n\n<tool_call>\n<function=inspect_pr_diff>\n<parameter=pr_id>\npr_482\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=launch>\n</function>\n</tool_call>'
    const result = runCli(['chat', 'parse', '--format', 'qwen3.5', '--env', 'releaseops-v1'], { input: text })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      content: null,
      reasoning: 'Check the PR.',
      tool_calls: [
        { name: 'inspect_pr_diff', arguments: { pr_id: 'pr_482' } },
        { name: 'launch', arguments: {} },
      ],
      issues: [{ code: 'unknown_tool', path: 'tool_calls.1.name', message: 'Unknown tool "launch".' }],
      repairs: 0,
    })
  })

  it('tokens counts with the Qwen3 tokenizer', () => {
    const result = runCli(['chat', 'tokens'], { input: '<|im_start|>user\nHello World<|im_end|>\n' })
    expect(result.stdout.trim()).toBe('7')
  })
})
