/**
 * python/README.md's TRL snippet (issue 18 item 6): `ReleaseOpsEnv` has `get_reward`, which TRL adds as a
 * reward source by itself, so the snippet's GRPOTrainer call must not also pass a reward function that
 * returns the env's reward (the reward would count twice).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/run-cli.js'

describe('python/README.md', () => {
  it('the TRL snippet leaves the reward to get_reward', () => {
    const readme = readFileSync(resolve(repositoryRoot, 'python/README.md'), 'utf8')
    const trlEnv = readFileSync(resolve(repositoryRoot, 'python/releaseops_client/trl_env.py'), 'utf8')
    expect(trlEnv).toMatch(/\n {4}def get_reward\(self\)/)
    const code = (readme.match(/```python\n([\s\S]*?)```/g) ?? []).join('\n')
    const live = code
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n')
    const call = /GRPOTrainer\(([^)]*(?:\([^)]*\)[^)]*)*)\)/.exec(live)
    expect(call, 'the snippet builds a GRPOTrainer').not.toBeNull()
    expect(call?.[1]).toContain('environment_factory=ReleaseOpsEnv')
    expect(call?.[1]).not.toContain('reward_funcs')
  })
})
