/** A ReleaseOps version as the shared v2/v3 test helpers see it: its id, families, mixes and scenario builder. */

import type { OracleProof } from '../../src/envs/releaseops/arena/build-scenario.js'
import type { Difficulty } from '../../src/envs/releaseops/arena/difficulty.js'
import type { Scenario } from '../../src/envs/releaseops/arena/scenario.js'
import type { ReleaseFacts } from '../../src/envs/releaseops/shared/safety-rules.js'

export interface VersionUnderTest<F extends string> {
  envId: string
  families: readonly F[]
  archetypeMixes: readonly string[]
  buildScenario: (options: {
    family: F
    seed: number
    difficulty: Difficulty
    archetypeMix: string
    factOverrides?: Partial<ReleaseFacts>
  }) => { scenario: Scenario; oracle: OracleProof }
}
