import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { PythonRandom } from './python-random.js'
import { pythonRound } from './python-round.js'

describe('pythonRound', () => {
  it('rounds ties to even on exactly representable halves', () => {
    expect(pythonRound(0.0625, 3)).toBe(0.062)
    expect(pythonRound(1.4375, 3)).toBe(1.438)
    expect(pythonRound(2.5)).toBe(2)
    expect(pythonRound(3.5)).toBe(4)
    expect(pythonRound(-0.0625, 3)).toBe(-0.062)
  })

  it('rounds non-ties to the nearest decimal of the exact binary value', () => {
    expect(pythonRound(-26 / 30, 3)).toBe(-0.867)
    expect(pythonRound(2.675, 2)).toBe(2.67) // 2.675 is stored just below the half
    expect(pythonRound(0.3125 + 1e-12, 3)).toBe(0.313)
  })

  it('agrees with CPython round() on 2,000 random means', () => {
    const rng = new PythonRandom(7)
    const values: number[] = []
    for (let index = 0; index < 2000; index++) {
      const count = rng.randint(1, 64)
      let total = 0
      for (let item = 0; item < count; item++) total += rng.choice([1, -1, -0.6, 0.15, -0.25, 1.15, -0.45, 0.2, -0.05])
      values.push(total / count)
    }
    const script = 'import json,sys; print(json.dumps([round(v, 3) for v in json.load(sys.stdin)]))'
    const expected = JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(values) }).toString())
    expect(values.map((value) => pythonRound(value, 3))).toEqual(expected)
  })
})
