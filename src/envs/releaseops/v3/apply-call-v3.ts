/** @module envs/releaseops/v3: routes a validated tool call to a v3 episode (the env and the generator's proof share it). */
import { callRouter } from '../v2/apply-call.js'
import type { EpisodeV3 } from './episode-v3.js'
import { inspectArtifactV3 } from './evidence-actions-v3.js'

export const applyCallV3 = callRouter<EpisodeV3>(inspectArtifactV3)
