/** @module envs/releaseops/arena/families: the plain CI run of the payment suite, naming the tests that fail. */
import type { ArtifactTemplate } from '../family-spec.js'
import { factArtifact } from './fact-artifact.js'

export const paymentCiRun = (slot: string, failing: readonly string[]): ArtifactTemplate =>
  factArtifact(slot, 'ci_run', 'payment_tests_passing', {
    whenTrue: (draw) => `CI Run Passed. ${draw.count} tests passed, 0 failed.`,
    whenFalse: (draw) => `CI Run Failed. ${draw.count} tests passed, ${failing.length} failed (${failing.join(', ')}).`,
  })
