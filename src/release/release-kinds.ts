/**
 * @module release: every release kind, in one list (what the kind conformance suite runs, and where
 * a new kind is added).
 */
import type { AnyReleaseKind } from './contracts/release-kind.js'
import { mixtureKind } from './mixtures/mixture-kind.js'
import { rlKind } from './rl/rl-kind.js'
import { sftKind } from './sft/sft-kind.js'
import { trajectoryKind } from './trajectories/trajectory-kind.js'

export const releaseKinds: readonly AnyReleaseKind[] = [sftKind, rlKind, trajectoryKind, mixtureKind]
