/** @module core/python: Python's `round(x, ndigits)`: correctly rounded, ties to even on the exact binary value. */

export function pythonRound(value: number, ndigits = 0): number {
  if (!Number.isFinite(value)) return value
  if (!Number.isInteger(ndigits) || ndigits < 0 || ndigits > 20) throw new RangeError(`ndigits must be 0..20, got ${ndigits}`)
  const scaled = value * 10 ** ndigits
  // An exact tie needs value = (k + 1/2) / 10^n exactly, which a double holds only when its
  // 2-adic part allows it; detect it on the exact value, not on the (inexact) scaled product.
  if (isExactHalfway(value, ndigits)) {
    const floor = Math.floor(scaled)
    const even = floor % 2 === 0 ? floor : floor + 1
    return even / 10 ** ndigits
  }
  return Number(value.toFixed(ndigits))
}

function isExactHalfway(value: number, ndigits: number): boolean {
  // value * 2 * 10^n must be an odd integer; 10^n = 2^n * 5^n and multiplying by 2^(n+1) is exact.
  const doubled = value * 2 ** (ndigits + 1)
  if (!Number.isInteger(doubled)) return false
  // doubled = value * 2^(n+1); need value * 2 * 10^n = doubled * 5^n odd: 5^n is odd, so doubled must be odd.
  return Math.abs(doubled) % 2 === 1
}
