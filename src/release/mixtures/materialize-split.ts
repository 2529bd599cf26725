/**
 * @module release/mixtures: one split of a mixture from each dataset's source groups (pure): targets
 * by sampling policy, cyclic episodes per dataset, each episode projected to its output rows, then the
 * split's deterministic order.
 */
import {
  achievedWeights,
  mixtureTargets,
  type PlannedEpisode,
  planDatasetEpisodes,
  type SamplingPolicy,
  sortMixtureRows,
} from './mixture-plan.js'

export interface MaterializedSplit<Row> {
  rows: Row[]
  input_source_counts: Record<string, number>
  source_counts: Record<string, number>
  achieved_weights: Record<string, number>
}

export function materializeSplit<Group, Row>(options: {
  split: string
  /** Per dataset, its source groups keyed by source id. */
  groups: Readonly<Record<string, ReadonlyMap<string, Group>>>
  policy: SamplingPolicy
  project(episode: PlannedEpisode, group: Group): Row[]
  key(row: Row): { id: string; stage: string }
}): MaterializedSplit<Row> {
  const counts = Object.fromEntries(Object.entries(options.groups).map(([dataset, groups]) => [dataset, groups.size]))
  const targets = mixtureTargets({ counts, policy: options.policy, split: options.split })
  const rows: Row[] = []
  for (const dataset of Object.keys(targets)) {
    const groups = options.groups[dataset] as ReadonlyMap<string, Group>
    const episodes = planDatasetEpisodes({ dataset, sourceIds: [...groups.keys()], target: targets[dataset] as number })
    for (const episode of episodes) rows.push(...options.project(episode, groups.get(episode.sourceId) as Group))
  }
  return {
    rows: sortMixtureRows({ split: options.split, rows, key: options.key }),
    input_source_counts: counts,
    source_counts: targets,
    achieved_weights: achievedWeights(targets),
  }
}
