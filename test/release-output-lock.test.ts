/**
 * Issue 24, item 7: one writer per output. Two `release sft export` into one directory at the same time:
 * one publishes, the other is refused (exit 2, `output_locked`, or `output_exists` once the first has
 * published) and replaces nothing. A killed writer's lock does not block the next one.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { outputLockPath } from '../src/io/output-lock.js'
import { releaseLineLayout } from '../src/release/pipeline/release-line-layout.js'
import { runReleaseLine } from '../src/release/pipeline/run-release-line.js'
import { type DemoFixture, demoFixture, releaseLineFiles, temporaryDirectory, treeHashes } from './support/release-fixture.js'
import { type CliResult, repositoryRoot } from './support/run-cli.js'

let fixture: DemoFixture
let layout: ReturnType<typeof releaseLineLayout>

interface Running {
  child: ChildProcess
  done: Promise<CliResult>
}

function startCli(args: readonly string[]): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, NO_COLOR: '1' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const done = new Promise<CliResult>((resolveDone) => child.on('close', (status) => resolveDone({ status, stdout, stderr })))
  return { child, done }
}

const exportArgs = (outputDir: string) => [
  'release',
  'sft',
  'export',
  '--canonical',
  join(layout.canonical, 'all.json'),
  '--out-dir',
  outputDir,
  '--dataset',
  fixture.dataset,
  '--registry',
  fixture.path('registry'),
  '--corpus',
  fixture.path('corpus'),
  '--task-config',
  fixture.path('task'),
  '--grading-config',
  fixture.path('grading'),
]

/** The lock's recorded owner, or undefined while the file is absent or not yet written whole. */
function lockOwner(outputDir: string): { pid: number } | undefined {
  try {
    return JSON.parse(readFileSync(outputLockPath(outputDir), 'utf8')) as { pid: number }
  } catch {
    return undefined
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((wake) => setTimeout(wake, 20))
  }
}

beforeAll(async () => {
  fixture = await demoFixture({ rows: 400 })
  const out = join(temporaryDirectory('output-lock'), 'out')
  layout = releaseLineLayout(out, fixture.dataset)
  await runReleaseLine({ ...releaseLineFiles(fixture), out, stripTrailingCodes: true, allowUnresolved: true })
}, 120_000)

describe('one writer per output', () => {
  it('a second sft export while one runs exits 2 with output_locked and replaces nothing', async () => {
    const outputDir = join(temporaryDirectory('two-writers'), 'release')
    const first = startCli(exportArgs(outputDir))
    // Hold the first writer while it holds its output's lock, so the second surely runs meanwhile.
    // The lock file is created, then its owner written: wait for the owner, not only the file.
    await until(() => lockOwner(outputDir) !== undefined, "the first export's lock")
    first.child.kill('SIGSTOP')
    const lock = JSON.parse(readFileSync(outputLockPath(outputDir), 'utf8'))
    expect(lock.pid).toBe(first.child.pid)
    const second = await startCli(exportArgs(outputDir)).done
    expect(second.status).toBe(2)
    expect(second.stderr).toContain('error[output_locked]')
    expect(second.stderr).toContain(`process ${first.child.pid}`)
    expect(existsSync(outputDir)).toBe(false)
    const failed = JSON.parse(readFileSync(`${outputDir}.failed.json`, 'utf8'))
    expect(failed).toMatchObject({ published: false, error: { code: 'output_locked' } })
    first.child.kill('SIGCONT')
    const published = await first.done
    expect(published.status, published.stderr).toBe(0)
    // The first writer's release is the line's own SFT release, byte for byte; its lock is gone.
    expect(treeHashes(outputDir)).toEqual(treeHashes(layout.sftRelease))
    expect(existsSync(outputLockPath(outputDir))).toBe(false)
    // Once published, a later writer is refused too, and the release stays as it is.
    const later = await startCli(exportArgs(outputDir)).done
    expect([later.status, later.stderr]).toEqual([2, expect.stringContaining('error[output_exists]')])
    expect(treeHashes(outputDir)).toEqual(treeHashes(layout.sftRelease))
  }, 240_000)

  it('two started together: one publishes, the other exits 2; a dead writer’s lock is taken over', async () => {
    const outputDir = join(temporaryDirectory('racing-writers'), 'release')
    const results = await Promise.all([startCli(exportArgs(outputDir)).done, startCli(exportArgs(outputDir)).done])
    expect(results.map((result) => result.status).sort()).toEqual([0, 2])
    const refused = results.find((result) => result.status === 2) as CliResult
    expect(refused.stderr).toMatch(/error\[output_(locked|exists)\]/)
    expect(treeHashes(outputDir)).toEqual(treeHashes(layout.sftRelease))

    const next = join(dirname(outputDir), 'next')
    const killed = startCli(exportArgs(next))
    await until(() => existsSync(outputLockPath(next)), "the killed export's lock")
    killed.child.kill('SIGKILL')
    await killed.done
    expect(existsSync(outputLockPath(next))).toBe(true)
    const after = await startCli(exportArgs(next)).done
    expect(after.status, after.stderr).toBe(0)
    expect(treeHashes(next)).toEqual(treeHashes(layout.sftRelease))
    expect(existsSync(outputLockPath(next))).toBe(false)
  }, 240_000)
})
