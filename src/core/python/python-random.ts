/**
 * @module core/python: CPython's `random.Random` (MT19937) ported exactly, so scenario
 * builders written against Python reproduce the same draws for the same seed.
 */

const N = 624
const M = 397
const MATRIX_A = 0x9908b0df
const UPPER_MASK = 0x80000000
const LOWER_MASK = 0x7fffffff

/** The 32-bit little-endian words of abs(seed), at least one word (CPython's `random_seed`). */
function seedKey(seed: number | bigint): number[] {
  let value = typeof seed === 'bigint' ? seed : BigInt(Math.trunc(seed))
  if (typeof seed === 'number' && !Number.isInteger(seed)) {
    throw new TypeError(`Seed must be an integer, got ${seed}`)
  }
  if (value < 0n) value = -value
  const key: number[] = []
  while (value > 0n) {
    key.push(Number(value & 0xffffffffn))
    value >>= 32n
  }
  return key.length === 0 ? [0] : key
}

/** `init_genrand(s)`: the linear fill every seeding starts from. */
function initGenrand(mt: Uint32Array, seed: number): void {
  mt[0] = seed >>> 0
  for (let i = 1; i < N; i++) {
    const previous = mt[i - 1] as number
    mt[i] = (Math.imul(1812433253, previous ^ (previous >>> 30)) + i) >>> 0
  }
}

/** `init_by_array` always starts from `init_genrand(19650218)`: computed once, copied per seeding. */
const genrandBase = new Uint32Array(N)
initGenrand(genrandBase, 19650218)

export class PythonRandom {
  private readonly mt = new Uint32Array(N)
  private index = N

  constructor(seed: number | bigint = 0) {
    this.seed(seed)
  }

  /** Re-seeds in place (no allocation), as `random.seed(n)` does. */
  seed(seed: number | bigint): void {
    this.initByArray(
      typeof seed === 'number' && seed >= 0 && seed < 0x100000000 && Number.isInteger(seed) ? [seed] : seedKey(seed),
    )
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt
    mt.set(genrandBase)
    const keyLength = key.length
    // `previous` carries mt[i-1] so each step reads one word; after a wrap mt[0] = mt[N-1] = previous.
    let previous = mt[0] as number
    let i = 1
    let j = 0
    for (let k = Math.max(N, keyLength); k > 0; k--) {
      const value =
        ((((mt[i] as number) ^ Math.imul(previous ^ (previous >>> 30), 1664525)) >>> 0) + (key[j] as number) + j) >>> 0
      mt[i] = value
      previous = value
      i++
      j++
      if (i >= N) {
        mt[0] = value
        i = 1
      }
      if (j >= keyLength) j = 0
    }
    for (let k = N - 1; k > 0; k--) {
      const value = ((((mt[i] as number) ^ Math.imul(previous ^ (previous >>> 30), 1566083941)) >>> 0) - i) >>> 0
      mt[i] = value
      previous = value
      i++
      if (i >= N) {
        mt[0] = value
        i = 1
      }
    }
    mt[0] = 0x80000000
    this.index = N
  }

  /**
   * genrand_uint32: the next tempered 32-bit output. The twist is done lazily, one word per draw:
   * word i only reads words i+1 (not yet twisted) and i+M mod N (twisted iff i >= N-M), so twisting
   * in draw order gives exactly CPython's block twist, and a scenario of ~40 draws skips ~580 words.
   */
  nextUint32(): number {
    const mt = this.mt
    let i = this.index
    if (i >= N) i = 0
    const following = i + 1 < N ? i + 1 : 0
    const mixed = ((mt[i] as number) & UPPER_MASK) | ((mt[following] as number) & LOWER_MASK)
    let y = ((mt[i + M < N ? i + M : i + M - N] as number) ^ (mixed >>> 1) ^ (mixed & 1 ? MATRIX_A : 0)) >>> 0
    mt[i] = y
    this.index = i + 1
    y ^= y >>> 11
    y ^= (y << 7) & 0x9d2c5680
    y ^= (y << 15) & 0xefc60000
    y ^= y >>> 18
    return y >>> 0
  }

  /** `getrandbits(k)` for 0 <= k <= 53 (exact as a JS number). */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be a non-negative integer')
    if (k === 0) return 0
    if (k <= 32) return this.nextUint32() >>> (32 - k)
    if (k > 53) throw new RangeError('getrandbits supports at most 53 bits as a number; use getrandbitsBig')
    // CPython fills words least significant first; the last word keeps its top (k % 32) bits.
    const low = this.nextUint32()
    const high = this.nextUint32() >>> (64 - k)
    return high * 0x100000000 + low
  }

  /** `getrandbits(k)` for any k, as a bigint. */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new RangeError('number of bits must be a non-negative integer')
    let result = 0n
    let shift = 0n
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.nextUint32()
      if (remaining < 32) word >>>= 32 - remaining
      result |= BigInt(word) << shift
      shift += 32n
    }
    return result
  }

  /** `_randbelow_with_getrandbits(n)`: uniform in [0, n) by rejection sampling. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`randbelow needs a non-negative safe integer, got ${n}`)
    if (n === 0) return 0
    const k = bitLength(n)
    let r = this.getrandbits(k)
    while (r >= n) r = this.getrandbits(k)
    return r
  }

  /** `randrange(start, stop)` with step 1. */
  randrange(start: number, stop: number): number {
    const width = stop - start
    if (width <= 0) throw new RangeError(`empty range for randrange (${start}, ${stop})`)
    return start + this.randbelow(width)
  }

  /** `randint(a, b)`: uniform in [a, b], both ends included. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1)
  }

  /** `choice(seq)`. */
  choice<T>(sequence: readonly T[]): T {
    if (sequence.length === 0) throw new RangeError('Cannot choose from an empty sequence')
    return sequence[this.randbelow(sequence.length)] as T
  }

  /** `shuffle(x)` in place (CPython's Fisher-Yates from the end). */
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1)
      const swap = items[i] as T
      items[i] = items[j] as T
      items[j] = swap
    }
  }

  /** `random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.nextUint32() >>> 5
    const b = this.nextUint32() >>> 6
    return (a * 67108864 + b) / 9007199254740992
  }
}

function bitLength(n: number): number {
  return n < 0x100000000 ? 32 - Math.clz32(n) : 32 + bitLength(Math.floor(n / 0x100000000))
}
