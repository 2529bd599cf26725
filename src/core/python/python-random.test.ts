import { describe, expect, it } from 'vitest'
import vectors from './__fixtures__/python-random-vectors.json' with { type: 'json' }
import { PythonRandom } from './python-random.js'

type Operation = [string, unknown, unknown]

describe('PythonRandom', () => {
  it('matches the test vectors of docs/original-arena.md §12', () => {
    const r42 = new PythonRandom(42)
    expect([r42.nextUint32(), r42.nextUint32(), r42.nextUint32()]).toEqual([2746317213, 478163327, 107420369])
    const r0 = new PythonRandom(0)
    expect([r0.nextUint32(), r0.nextUint32()]).toEqual([3626764237, 1654615998])
    const draws = new PythonRandom(42)
    expect(draws.choice([12, 24, 36])).toBe(36)
    expect(draws.randint(4, 7)).toBe(4)
  })

  for (const testCase of vectors.cases) {
    it(`reproduces CPython ${vectors.python} draws for seed ${testCase.seed}`, () => {
      const seed = BigInt(testCase.seed)
      const raw = new PythonRandom(seed)
      expect(testCase.u32.map(() => raw.nextUint32())).toEqual(testCase.u32)
      const rng = new PythonRandom(seed)
      for (const [operation, argument, expected] of testCase.ops as Operation[]) {
        switch (operation) {
          case 'randbelow':
            expect(rng.randbelow(argument as number), `randbelow(${argument})`).toBe(expected)
            break
          case 'randint': {
            const [a, b] = argument as [number, number]
            expect(rng.randint(a, b), `randint(${a}, ${b})`).toBe(expected)
            break
          }
          case 'getrandbits':
            expect(rng.getrandbits(argument as number), `getrandbits(${argument})`).toBe(expected)
            break
          case 'choice':
            expect(rng.choice(argument as number[])).toBe(expected)
            break
          case 'shuffle': {
            const items = Array.from({ length: argument as number }, (_, index) => index)
            rng.shuffle(items)
            expect(items).toEqual(expected)
            break
          }
          case 'random':
            expect(rng.random()).toBe(expected)
            break
          case 'getrandbits_big':
            expect(rng.getrandbitsBig(argument as number).toString()).toBe(expected)
            break
          default:
            throw new Error(`unknown operation ${operation}`)
        }
      }
    })
  }

  for (const run of vectors.long_runs) {
    it(`matches CPython over 2,500 draws (four twists) for seed ${run.seed}`, () => {
      const rng = new PythonRandom(BigInt(run.seed))
      const draws = Array.from({ length: 2500 }, () => rng.nextUint32())
      expect(draws.filter((_, index) => index % 97 === 0)).toEqual(run.every_97th)
      expect(draws.at(-1)).toBe(run.last)
    })
  }

  it('re-seeds in place exactly like a fresh generator', () => {
    const reused = new PythonRandom(1)
    for (let index = 0; index < 700; index++) reused.nextUint32()
    reused.seed(42)
    expect(reused.nextUint32()).toBe(2746317213)
  })

  it('treats a negative seed like its absolute value, as CPython does', () => {
    expect(new PythonRandom(-42).nextUint32()).toBe(new PythonRandom(42).nextUint32())
  })

  it('rejects non-integer seeds and empty choices', () => {
    expect(() => new PythonRandom(1.5)).toThrow(TypeError)
    expect(() => new PythonRandom(1).choice([])).toThrow(RangeError)
    expect(() => new PythonRandom(1).randint(5, 4)).toThrow(RangeError)
  })
})
