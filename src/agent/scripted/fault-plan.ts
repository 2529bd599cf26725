/**
 * @module agent/scripted: which requests the mock endpoint answers badly, and how. Faults are chosen per
 * request number, from a fixed sequence or a seeded generator, so a test says exactly what happens.
 */
import { PythonRandom } from '../../core/python/python-random.js'

export const faultKinds = [
  /** 429 with `Retry-After: 0`. */
  'rate_limit',
  /** 500 with a JSON error body. */
  'server_error',
  /** 503 with an HTML body. */
  'unavailable',
  /** Never answers (the client's timeout fires). */
  'timeout',
  /** Half the body (or a few stream chunks), then the connection drops. */
  'truncated',
  /** 200 with a body that is not JSON. */
  'garbage',
  /** The connection is reset before any answer. */
  'reset',
  /** 200 with `"choices": []`. */
  'empty_choices',
  /** A well-formed answer whose text is nonsense: the model's failure, not the endpoint's. */
  'garbage_content',
] as const
export type FaultKind = (typeof faultKinds)[number]

/** Decides the fault (or none) for the n-th request (from 1) to a model route. */
export type FaultPlan = (request: { number: number; route: string }) => FaultKind | null

/** Request n gets `kinds[n - 1]`; requests past the end get none. */
export function faultSequence(kinds: readonly (FaultKind | null)[]): FaultPlan {
  return ({ number }) => kinds[number - 1] ?? null
}

/** Each request independently draws a fault with the given rates (seeded, so a run is repeatable). */
export function randomFaults(options: { rates: Partial<Record<FaultKind, number>>; seed?: number }): FaultPlan {
  const random = new PythonRandom(options.seed ?? 0)
  const entries = Object.entries(options.rates) as [FaultKind, number][]
  const total = entries.reduce((sum, [, rate]) => sum + rate, 0)
  if (total > 1) throw new RangeError(`Fault rates add up to ${total}, more than 1.`)
  return () => {
    let draw = random.random()
    for (const [kind, rate] of entries) {
      if (draw < rate) return kind
      draw -= rate
    }
    return null
  }
}

/** `429:0.1,timeout:0.05` → rates, for the CLI. */
export function parseFaultRates(text: string): Partial<Record<FaultKind, number>> {
  const rates: Partial<Record<FaultKind, number>> = {}
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [name, value] = part.split(':')
    const kind = (
      name === '429' ? 'rate_limit' : name === '500' ? 'server_error' : name === '503' ? 'unavailable' : name
    ) as FaultKind
    const rate = Number(value)
    if (!faultKinds.includes(kind) || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      throw new RangeError(
        `Bad fault "${part}": expected <kind>:<rate> with kind in ${faultKinds.join(', ')} (or 429, 500, 503) and 0 <= rate <= 1.`,
      )
    }
    rates[kind] = rate
  }
  return rates
}
