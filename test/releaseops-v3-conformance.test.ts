/** releaseops-v3 against the shared env conformance suite (determinism, bad calls as data, fuzzing with the unfinished-episode charge, truncation, JSON). */
import { describe, it } from 'vitest'
import { envConformanceCases } from '../src/core/testing/env-conformance.js'
import { makeEnv } from '../src/envs/index.js'
import { archetypeMixes } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { difficulties } from '../src/envs/releaseops/arena/difficulty.js'
import { heldOutMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes.js'
import { familiesV3 } from '../src/envs/releaseops/v3/families/index.js'
import type { ReleaseOpsV3Observation } from '../src/envs/releaseops/v3/releaseops-env.js'

const mixes = [...archetypeMixes, ...heldOutMixesV3]
const resets = familiesV3.map((family, index) => ({
  seed: 900 + index * 41,
  options: {
    family,
    difficulty: difficulties[index % difficulties.length] as string,
    archetype_mix: mixes[index % mixes.length] as string,
  },
}))

describe('releaseops-v3 conformance', () => {
  for (const testCase of envConformanceCases<ReleaseOpsV3Observation>({
    createEnv: () => makeEnv('releaseops-v3'),
    resets,
    fuzzCalls: 4000,
  })) {
    it(testCase.name, () => testCase.run())
  }
})
