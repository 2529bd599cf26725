/** `releaseops serve` and `releaseops mcp` reject bad options with coded errors before listening. */
import { describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

describe('releaseops serve / mcp options', () => {
  it('an unknown env is error[unknown_env], exit 2', () => {
    const result = runCli(['serve', '--env', 'nope-v1', '--port', '0'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('error[unknown_env]')
    expect(result.stdout).toBe('')
  })

  it('a short token, a bad port or a bad number of seconds is refused', () => {
    const token = runCli(['serve', '--token', 'short', '--port', '0'])
    expect(token.status).toBe(2)
    expect(token.stderr).toContain('error[invalid_server_options]')
    expect(token.stderr).toContain('error[invalid_server_options] (--token): A token needs at least 16 characters.')
    // Named by its flag and printed once (issue 37).
    const operator = runCli(['serve', '--operator-token', 'short', '--port', '0'])
    expect(operator.status).toBe(2)
    expect(operator.stderr).toBe('error[invalid_server_options] (--operator-token): A token needs at least 16 characters.\n')
    expect(runCli(['serve', '--port', '70000']).stderr).toContain('port')
    const seconds = runCli(['serve', '--session-timeout', 'soon'])
    expect(seconds.status).not.toBe(0)
    expect(seconds.stderr).toContain('expected seconds')
  })

  it('mcp refuses an unknown env and bad options JSON', () => {
    expect(runCli(['mcp', '--env', 'nope-v1']).stderr).toContain('error[unknown_env]')
    expect(runCli(['mcp', '--env', 'releaseops-v1', '--options', '[1]']).stderr).toContain('expected a JSON object')
  })
})
