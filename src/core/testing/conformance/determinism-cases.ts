/** @module core/testing/conformance: the same seed and calls replay byte for byte, on a fresh env and on a reused one. */
import type { Observation } from '../../env/env-api.js'
import { check, serialize } from './conformance-checks.js'
import { type ConformanceCase, type ConformanceContext, playTranscript } from './conformance-context.js'

export function determinismCases<O extends Observation>(context: ConformanceContext<O>): ConformanceCase[] {
  const { spec, createEnv, resets, seed, trajectoryLength } = context
  return [
    {
      name: 'same seed and calls give byte-identical trajectories',
      async run() {
        for (const [index, reset] of resets.entries()) {
          const replay = { reset, calls: trajectoryLength, rngSeed: seed + index }
          const first = await playTranscript(spec, { env: createEnv(), ...replay })
          const second = await playTranscript(spec, { env: createEnv(), ...replay })
          check(first.length === second.length, 'determinism', 'transcripts differ in length', { reset })
          for (let line = 0; line < first.length; line++) {
            check(first[line] === second[line], 'determinism', `transcripts differ at line ${line}`, {
              reset,
              first: first[line]?.slice(0, 400),
              second: second[line]?.slice(0, 400),
            })
          }
          // A reused env must not leak state between episodes.
          const reused = createEnv()
          await playTranscript(spec, { env: reused, reset, calls: 7, rngSeed: seed + 99 })
          const again = await playTranscript(spec, { env: reused, ...replay })
          check(serialize(again) === serialize(first), 'determinism', 'a reused env differs from a fresh one', { reset })
        }
      },
    },
  ]
}
