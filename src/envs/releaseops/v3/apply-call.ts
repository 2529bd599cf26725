/** @module envs/releaseops/v3: routes a validated tool call to a v3 episode (the env and the generator's proof share it). */
import { callRouter } from '../arena/apply-call.js'
import type { EpisodeV3 } from './episode.js'
import { inspectArtifactV3 } from './evidence-actions.js'

export const applyCallV3 = callRouter<EpisodeV3>(inspectArtifactV3)
