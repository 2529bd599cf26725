import { describe, expect, it } from 'vitest'
import { maxEchoChars } from '../src/core/wrappers/bound-echoed-input.js'
import { makeEnv } from '../src/envs/index.js'

describe('boundEchoedInput (through makeEnv)', () => {
  for (const id of ['releaseops-v1', 'releaseops-v2', 'grading-v1']) {
    it(`${id}: a 1 MB tool name or id is echoed cut to ${maxEchoChars} characters`, () => {
      const env = makeEnv(id)
      env.reset({ seed: 1 })
      const huge = 'x'.repeat(1024 * 1024)
      const unknown = env.step({ name: huge, arguments: {} })
      expect(unknown.observation.error?.code).toBe('unknown_tool')
      const text = env.render(unknown.observation)
      expect(text.length).toBeLessThan(20_000)
      expect(text).toContain(`(${huge.length} characters)`)
      const tool = env.spec.tools[0]?.name as string
      const badId = env.step({ name: tool, arguments: JSON.stringify({ ticket_id: huge, pr_id: huge, id: huge }) })
      expect(JSON.stringify(badId.observation).length).toBeLessThan(20_000)
    })
  }

  it('valid and short calls are untouched (same object)', () => {
    const env = makeEnv('releaseops-v1')
    const bare = makeEnv('releaseops-v1', { bare: true })
    env.reset({ seed: 2 })
    bare.reset({ seed: 2 })
    const call = { name: 'nope', arguments: { id: 'short' } }
    expect(env.step(call)).toEqual(bare.step(call))
  })
})
