/**
 * The Python side against a live server on an ephemeral loopback port: the standard-library client and
 * the TRL env class under plain `python3 -m unittest`, and OpenEnv's `/ws` protocol with the real
 * `websockets` package (the test venv). The expected episode comes from the in-process env.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeEnv } from '../src/envs/index.js'
import type { RunningServer } from '../src/server/start-server.js'
import { testPython } from './support/python.js'
import { repositoryRoot } from './support/run-cli.js'
import { type JsonRecord, startTestServer } from './support/test-server.js'
import { startOperationsServer } from './train-support/operations-server.js'

const envId = 'releaseops-v1'
let server: RunningServer
let expectedPath: string

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 64 })
  expectedPath = join(mkdtempSync(join(tmpdir(), 'releaseops-python-')), 'expected.json')
  writeFileSync(expectedPath, JSON.stringify(expectedEpisode()))
})
afterAll(async () => {
  await server.close()
})

/** One episode in process: the row, the calls, and every text and reward the server must reproduce. */
function expectedEpisode() {
  const env = makeEnv(envId)
  const row = {
    seed: 8491,
    family: 'green_ci_disabled_payment_test',
    difficulty: 'medium',
    archetype_mix: 'shortcut_ci__careful_qa',
  }
  const { seed, ...options } = row
  const reset = env.reset({ seed, options })
  const calls = [
    { tool: 'inspect_pr_diff', arguments: { pr_id: 'pr_482' } },
    { tool: 'ask_worker', arguments: { worker_id: 'qa_triage', question_type: 'gossip' } },
    {
      tool: 'block_proposal',
      arguments: { proposal_id: (reset.observation as JsonRecord).view.proposals[0].id as string, rule_id: 'S2' },
    },
    { tool: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
    { tool: 'approve_proposal', arguments: { proposal_id: 'p0' } },
  ]
  const steps = calls.map((call) => {
    const result = env.step({ name: call.tool, arguments: call.arguments })
    return {
      ...call,
      text: env.render(result.observation),
      reward: result.reward,
      cumulative_reward: result.info.cumulative_reward,
      done: result.terminated || result.truncated,
    }
  })
  return {
    env_id: envId,
    row,
    reset_text: env.render(reset.observation),
    steps,
    tool_names: env.spec.tools.map((tool) => tool.name),
    max_episode_steps: env.spec.maxEpisodeSteps,
  }
}

/** Runs a command without blocking this process's event loop (the server lives here). */
function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, {
      cwd: resolve(repositoryRoot, 'python'),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', RELEASEOPS_URL: server.url, RELEASEOPS_EXPECTED: expectedPath },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('close', (code) => resolveRun({ code, output }))
  })
}

function ranTests(output: string): number {
  return Number(/Ran (\d+) tests?/.exec(output)?.[1] ?? 0)
}

describe('python/ against a live server', () => {
  it('standard-library client and TRL env class: `python3 -m unittest` passes, nothing skipped', async () => {
    const { code, output } = await run('python3', [
      '-B',
      '-E',
      '-s',
      '-m',
      'unittest',
      '-v',
      'tests.test_client',
      'tests.test_trl_env',
    ])
    expect(code, output).toBe(0)
    expect(output).toMatch(/\nOK\s*$/)
    expect(output).not.toMatch(/skipped/i)
    expect(ranTests(output)).toBe(13)
  })

  it('a ping burst from the websockets package (OpenEnv clients use it): 300, 1,000, 5,000 all answered', async () => {
    const script = [
      'import asyncio, json, sys, websockets',
      'async def burst(url, n):',
      '    async with websockets.connect(url, ping_interval=None) as ws:',
      '        waiters = [await ws.ping(str(i).encode()) for i in range(n)]',
      '        done, pending = await asyncio.wait(waiters, timeout=60)',
      '        await ws.send(json.dumps({"type": "reset"}))',
      '        reply = json.loads(await ws.recv())',
      '        return {"answered": sum(1 for w in done if not w.exception()), "pending": len(pending), "reply": reply["type"]}',
      'print(json.dumps([asyncio.run(burst(sys.argv[1], n)) for n in (300, 1000, 5000)]))',
    ].join('\n')
    const { code, output } = await run(testPython(), ['-c', script, `${server.url.replace('http', 'ws')}/ws`])
    expect(code, output).toBe(0)
    expect(JSON.parse(output)).toEqual([
      { answered: 300, pending: 0, reply: 'observation' },
      { answered: 1000, pending: 0, reply: 'observation' },
      { answered: 5000, pending: 0, reply: 'observation' },
    ])
  })

  it('OpenEnv /ws with the real websockets package, as OpenEnv EnvClient uses it', async () => {
    const { code, output } = await run(testPython(), ['-B', '-m', 'unittest', '-v', 'tests.test_openenv_websocket'])
    expect(code, output).toBe(0)
    expect(output).toMatch(/\nOK\s*$/)
    expect(output).not.toMatch(/skipped/i)
    expect(ranTests(output)).toBe(6)
  })

  it("an archive with a FIFO and non-ASCII names reads back in Python's tarfile, pax headers and all", async () => {
    const operations = await startOperationsServer()
    try {
      const folder = join(operations.outputs, 'runs', 'odd')
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, 'café.txt'), 'hello café\n')
      writeFileSync(Buffer.from(`${folder}/caf\xe9.txt`, 'latin1'), 'latin-1\n')
      execFileSync('mkfifo', [join(folder, 'pipe')])
      const response = await operations.call('/outputs/archive?path=runs/odd')
      const archive = join(mkdtempSync(join(tmpdir(), 'releaseops-archive-')), 'odd.tar.gz')
      writeFileSync(archive, Buffer.from(await response.arrayBuffer()))
      const script = [
        'import json, os, sys, tarfile',
        'with tarfile.open(sys.argv[1], "r:gz") as tar:',
        '    rows = [[os.fsencode(m.name).hex(), m.type.decode(), m.size, m.pax_headers.get("hdrcharset"),',
        '             tar.extractfile(m).read().decode() if m.isfile() else None] for m in tar.getmembers()]',
        'print(json.dumps(rows))',
      ].join('\n')
      const { code, output } = await run(testPython(), ['-c', script, archive])
      expect(code, output).toBe(0)
      const rows = (JSON.parse(output) as [string, string, number, string | null, string | null][]).map(
        ([name, type, size, charset, text]) => [Buffer.from(name, 'hex').toString('latin1'), type, size, charset, text],
      )
      expect(rows).toEqual([
        ['odd', '5', 0, null, null],
        [Buffer.from('odd/café.txt').toString('latin1'), '0', 12, null, 'hello café\n'],
        ['odd/caf\xe9.txt', '0', 8, 'BINARY', 'latin-1\n'],
      ])
    } finally {
      await operations.dispose()
    }
  })
})
