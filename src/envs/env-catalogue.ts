/**
 * @module envs: what `releaseops env list` shows of each registered env, as plain data. The build writes
 * it beside dist (`scripts/write-env-catalogue.mjs`) so that listing envs loads none of them, as oclif's
 * manifest does for commands; this function is the one source it is written from.
 */
import { defaultEnvId, envRegistry, policyRegistry } from './index.js'

export interface EnvCatalogueEntry {
  id: string
  isDefault: boolean
  description: string
  tools: string[]
  policies: string[]
  maxEpisodeSteps: number
  /** The dataset's splits; null for an env without a dataset. */
  splits: string[] | null
}

export function envCatalogue(): EnvCatalogueEntry[] {
  return envRegistry.ids().map((id) => {
    const spec = envRegistry.spec(id)
    const dataset = envRegistry.get(id).dataset
    return {
      id,
      isDefault: id === defaultEnvId,
      description: spec.description,
      tools: spec.tools.map((tool) => tool.name),
      policies: policyRegistry.names(id),
      maxEpisodeSteps: spec.maxEpisodeSteps,
      splits: dataset ? [...dataset.splits] : null,
    }
  })
}
