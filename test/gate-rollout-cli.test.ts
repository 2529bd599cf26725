/**
 * `releaseops gate rollout` end to end in a child process: the report file and the exit code (0 passed,
 * 1 failed, 3 infrastructure error) for a release split served by a scripted model over HTTP; the same
 * gate on the Arena's eval dataset (`--env releaseops-v2`) against `releaseops mock-llm`, with numbers
 * that match the policy run in process.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import type { MockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { gateReportSchema } from '../src/eval/gate/gate-report.js'
import { type GateFixture, gateFixture, scriptedEndpoint } from './gate-fixture.js'
import { repositoryRoot } from './support/run-cli.js'

let fixture: GateFixture
const servers: MockOpenAiServer[] = []
const children: ChildProcess[] = []

beforeAll(async () => {
  fixture = await gateFixture()
})
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM')
  await Promise.all(servers.map((server) => server.close()))
})

/** Runs the CLI without blocking this process (a mock server may live here). */
function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, NO_COLOR: '1' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => resolveRun({ code, stdout, stderr }))
  })
}

function releaseArgs(baseUrl: string, report: string): string[] {
  const { files } = fixture
  return [
    'gate',
    'rollout',
    '--release',
    fixture.release,
    '--split',
    'val',
    '--registry',
    files.registry,
    '--corpus',
    files.corpus,
    '--task-config',
    files.taskConfig,
    '--grading-manifest',
    files.gradingManifest,
    '--base-url',
    baseUrl,
    '--model',
    'scripted-grader',
    // The mock speaks qwen3.5 text; the gate's default mode is native (issue 37).
    '--mode',
    'qwen3.5',
    '--report',
    report,
    '--concurrency',
    '4',
  ]
}

describe('releaseops gate rollout', () => {
  it('exits 0 for a passing rate and writes a complete report; 1 for a failing one', { timeout: 180_000 }, async () => {
    // Two samples per prompt (the default): eight prompts right on one sample of two.
    const passing = await scriptedEndpoint({ fixture, correct: new Set(), alternate: new Set(fixture.keys.slice(0, 8)) })
    servers.push(passing)
    const report = join(fixture.root, 'gate-pass.json')
    const episodes = join(fixture.root, 'gate-pass.episodes.jsonl')
    const run = await cli([...releaseArgs(passing.url, report), '--episodes', episodes])
    expect(run.code, run.stderr).toBe(0)
    const parsed = gateReportSchema.parse(JSON.parse(readFileSync(report, 'utf8')))
    expect(parsed).toMatchObject({
      status: 'passed',
      reasons: [],
      numerator: 8,
      denominator: fixture.keys.length * 2,
      per_prompt: { samples_per_prompt: 2, mixed_prompts: 8 },
      thinking: { enable_thinking: false },
    })
    expect(parsed.chat).toMatchObject({ trajectory_format: 'qwen3.5-native-tools-v2', mode: 'qwen3.5' })
    expect(parsed.loop).toMatchObject({ max_assistant_turns: 4, max_user_turns: 3, max_parallel_calls: 1 })
    expect(parsed.env).toMatchObject({ id: 'grading-v1', tool_schemas: 'verl' })
    expect(parsed.release).toMatchObject({
      kind: 'rl',
      split: 'val',
      split_parquet_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'passed', numerator: 8, reasons: [] })
    const lines = readFileSync(episodes, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toHaveLength(fixture.keys.length * 2)
    expect(lines[0].trajectory.at(-1)).toMatchObject({ role: 'assistant' })

    const failing = await scriptedEndpoint({ fixture, correct: new Set(fixture.keys.slice(0, 14)) })
    servers.push(failing)
    const failed = await cli(releaseArgs(failing.url, join(fixture.root, 'gate-fail.json')))
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout)).toMatchObject({
      status: 'failed',
      numerator: 28,
      reasons: ['rate_out_of_bounds', 'no_learning_signal'],
    })
  })

  it('cannot be talked around: custom bounds need --exploration (flagged), and --limit under the split fails', {
    timeout: 180_000,
  }, async () => {
    const server = await scriptedEndpoint({ fixture, correct: new Set(), alternate: new Set(fixture.keys.slice(0, 4)) })
    servers.push(server)
    const wide = await cli([...releaseArgs(server.url, join(fixture.root, 'gate-wide.json')), '--lower', '0', '--upper', '1'])
    expect(wide.code).toBe(2)
    expect(wide.stderr).toMatch(/error\[gate_bounds_not_formal\]/)
    const exploring = join(fixture.root, 'gate-exploration.json')
    const explored = await cli([...releaseArgs(server.url, exploring), '--exploration', '--lower', '0', '--upper', '1'])
    expect(explored.code).toBe(0)
    expect(JSON.parse(readFileSync(exploring, 'utf8')).rule).toMatchObject({ lower: 0, upper: 1, formal: false })
    // Four prompts × two samples with some right would be a rate: below the whole split, it is no evidence.
    const limited = join(fixture.root, 'gate-limited.json')
    const few = await cli([...releaseArgs(server.url, limited), '--limit', '4'])
    expect(few.code).toBe(1)
    const report = JSON.parse(readFileSync(limited, 'utf8'))
    expect(report).toMatchObject({ status: 'failed', denominator: 8, limits: { rows: 4, split_rows: fixture.keys.length } })
    expect(report.rule).toMatchObject({ formal: true, min_denominator: fixture.keys.length * 2, lower: 0.05, upper: 0.3 })
    expect(report.reasons.map((reason: { code: string }) => reason.code)).toContain('denominator_below_minimum')
  })

  it('exits 3 when the endpoint fails during the rollouts (it lists models, then answers 503), and says so', async () => {
    // An endpoint nobody listens on is refused before any rollout (exit 2, test/cli-first-hour-errors);
    // one that answers /models and then fails is an infrastructure error: a report, no rate, exit 3.
    const failing = createServer((request, response) => {
      if (request.method === 'GET' && request.url?.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-grader', object: 'model' }] }))
        return
      }
      response.writeHead(503, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'overloaded' } }))
    })
    await new Promise<void>((listening) => failing.listen(0, '127.0.0.1', () => listening()))
    try {
      const { port } = failing.address() as AddressInfo
      const report = join(fixture.root, 'gate-down.json')
      const run = await cli([...releaseArgs(`http://127.0.0.1:${port}/v1`, report), '--timeout', '2', '--retries', '0'])
      expect(run.code, run.stderr).toBe(3)
      expect(run.stderr).toMatch(/infrastructure error \(endpoint_status/)
      expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
        status: 'infrastructure_error',
        rate: null,
        passed: false,
      })
    } finally {
      await new Promise<void>((closed) => failing.close(() => closed()))
    }
  })

  it('refuses task files the release was not built from', async () => {
    const args = releaseArgs('http://127.0.0.1:9/v1', join(fixture.root, 'never.json'))
    args[args.indexOf('--task-config') + 1] = fixture.files.registry
    const run = await cli(args)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/error\[(release_task_mismatch|invalid_task_config)\]/)
  })

  it('gates the Arena eval dataset too (--env releaseops-v2), matching the policy run in process, with its reasons', async () => {
    const mock = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(repositoryRoot, 'src/cli/run.ts'),
        'mock-llm',
        '--env',
        'releaseops-v2',
        '--policy',
        'phase-aware-rule',
        '--dataset',
        'eval',
        '--format',
        'qwen3.5',
        '--no-usage',
      ],
      { cwd: repositoryRoot },
    )
    children.push(mock)
    const line = await new Promise<string>((resolveLine) => createInterface({ input: mock.stdout }).once('line', resolveLine))
    const { url, model } = JSON.parse(line) as { url: string; model: string }
    const report = join(fixture.root, 'gate-v2.json')
    const run = await cli([
      'gate',
      'rollout',
      '--env',
      'releaseops-v2',
      '--split',
      'eval',
      '--limit',
      '12',
      '--base-url',
      url,
      '--model',
      model,
      '--mode',
      'qwen3.5',
      '--report',
      report,
      // An exploration run over 12 episodes: custom bounds and a denominator of its own.
      '--exploration',
      '--min-denominator',
      '12',
      '--lower',
      '0',
      '--upper',
      '1',
    ])
    const parsed = gateReportSchema.parse(JSON.parse(readFileSync(report, 'utf8')))
    const dataset = envRegistry.get('releaseops-v2').dataset
    const rows = dataset?.rows('eval').slice(0, 12) ?? []
    const expected = rows.filter(
      (row) =>
        runPolicyEpisode({
          env: makeEnv('releaseops-v2'),
          policy: policyRegistry.create('releaseops-v2', 'phase-aware-rule'),
          reset: dataset?.toResetParams(row) ?? {},
        }).reward > 0,
    ).length
    expect(expected).toBeGreaterThan(0)
    expect(expected).toBeLessThan(12)
    // Inside [0, 1], but a scripted policy is the same on both samples: nothing for RLOO to learn from.
    expect(run.code, run.stderr).toBe(1)
    expect(parsed).toMatchObject({
      status: 'failed',
      numerator: expected * 2,
      denominator: 24,
      per_prompt: { mixed_prompts: 0 },
      env: { id: 'releaseops-v2', tool_schemas: 'full' },
      release: { kind: 'env-dataset', dataset: 'eval' },
      rule: { formal: false, min_denominator: 12 },
      signals: { profile: 'arena' },
    })
    expect(parsed.reasons.map((reason) => reason.code)).toContain('no_learning_signal')
    expect(parsed.parse_failures.episodes).toBe(0)
  })
})
