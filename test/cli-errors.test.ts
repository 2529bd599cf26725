/**
 * CLI errors (issue 18 item 7): output paths are checked before any work starts (typed errors, exit 2,
 * no stack trace), usage errors exit 2, a bad family in a dataset file names its file:line, and
 * `releaseops mcp` answers a line that is not JSON with -32700.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { main } from '../src/cli/main.js'
import { envRegistry } from '../src/envs/index.js'
import { runCli } from './support/run-cli.js'

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'releaseops-cli-errors-'))
  mkdirSync(join(root, 'a-directory'))
  writeFileSync(join(root, 'file.json'), '{}')
  writeFileSync(join(root, 'bad.jsonl'), '{"seed": 1, "family": "careful_qa_safe"}\n{"seed": 2, "family": "no_such_family"}\n')
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** Runs the CLI in process; returns the exit code and what it wrote to stderr. */
async function cli(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = ''
  let stdout = ''
  const errors = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk)
    return true
  })
  const outputs = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  const code = await main(args)
  errors.mockRestore()
  outputs.mockRestore()
  return { code, stderr, stdout }
}

describe('output paths are checked before any work starts', () => {
  const cases: [string, string[], string][] = [
    ['eval --out <dir>', ['eval', '--policy', 'naive', '--out', 'a-directory'], 'output_is_directory'],
    ['eval --episodes-out <dir>', ['eval', '--policy', 'naive', '--episodes-out', 'a-directory'], 'output_is_directory'],
    ['dataset --out-dir file.json/sub', ['dataset', '--out-dir', 'file.json/sub'], 'output_parent_not_directory'],
    ['dataset --out-dir <file>', ['dataset', '--out-dir', 'file.json'], 'output_not_a_directory'],
    ['dataset --out-dir /proc/x', ['dataset', '--out-dir', '/proc/releaseops-x'], 'output_not_writable'],
  ]
  for (const [name, args, code] of cases) {
    it(`${name}: error[${code}], exit 2, nothing ran`, async () => {
      const resolved = args.map((arg) => (arg.startsWith('a-') || arg.startsWith('file.json') ? join(root, arg) : arg))
      // "Nothing ran" is checked by what happened, not by how long it took (issue 37 item 7): the
      // env is never even looked up, so no episode or split was generated.
      const lookups = vi.spyOn(envRegistry, 'get')
      const result = await cli(resolved)
      expect(lookups).not.toHaveBeenCalled()
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toContain(`error[${code}]`)
      expect(result.stderr).not.toMatch(/\n\s+at /)
      expect(result.stdout).toBe('')
    })
  }
})

describe('input errors', () => {
  it('usage errors exit 2', async () => {
    expect((await cli(['eval', '--bogus'])).code).toBe(2)
    expect((await cli(['eval', '--workers', 'abc'])).code).toBe(2)
    expect((await cli(['--version'])).code).toBe(0)
  })

  it('an unknown family in a dataset file names its file:line', async () => {
    const result = await cli(['eval', '--env', 'releaseops-v1', '--policy', 'naive', '--dataset', join(root, 'bad.jsonl')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`${join(root, 'bad.jsonl')}:2:options.family`)
    expect(result.stderr).not.toContain('bad.jsonl:1')
  })

  it('releaseops mcp answers a non-JSON line with -32700 and a non-JSON-RPC one with -32600, then goes on', () => {
    const input = 'not json\n[1, 2]\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    const result = runCli(['mcp', '--env', 'releaseops-v1'], { input })
    const replies = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(replies.map((reply) => reply.error?.code ?? 'ok')).toEqual([-32700, -32600, 'ok'])
    expect(replies[2]).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })
})
