/**
 * @module envs/releaseops/v3: partial evidence that looks complete. A shortcut author ("CI is green on
 * the linked run") whose reviewer is not careful (nobody in review opens the run) links, on each of its
 * proposals, a re-run of the failed jobs only in place of the CI run it cites: a green run that verifies
 * nothing. Its text names the full run it re-ran, which stays in play. Under a careful reviewer the same
 * author links the full run (a careful reviewer sends a partial re-run back), so no training mix has this
 * behaviour; the held-out mix `shortcut__overconfident__deadline` does. Ids and texts come from their own
 * visible stream and never read a fact (the twin and leak tests hold).
 */
import { PythonRandom } from '../../../core/random/python-random.js'
import type { ArtifactDraw, ArtifactTemplate } from '../v2/family-spec.js'
import type { ArtifactV2, ProposalV2, ScenarioV2 } from '../v2/scenario-v2.js'

export interface RerunArtifactTemplate extends ArtifactTemplate {
  /** The id of the full CI run whose failed jobs this run re-ran. */
  rerunOf: string
}

/** The full run a partial re-run stands in for (undefined for any other artifact). */
export function rerunSourceOf(artifact: ArtifactV2): string | undefined {
  return (artifact.template as Partial<RerunArtifactTemplate>).rerunOf
}

/** True when the scenario's author cuts this corner: a shortcut author under a reviewer who is not careful. */
export function linksPartialReruns(scenario: ScenarioV2): boolean {
  const archetypeOf = (role: string) => scenario.workers.find((worker) => worker.role === role)?.archetype
  return archetypeOf('author') === 'shortcut' && archetypeOf('reviewer') !== 'careful'
}

const rerunTexts = [
  (source: string, draw: ArtifactDraw) =>
    `Pipeline #${draw.count} (attempt 2, re-run of failed jobs of ${source}): ${(draw.variant % 3) + 2}/${(draw.variant % 3) + 2} jobs passed. Status: SUCCESS.`,
  (source: string, draw: ArtifactDraw) =>
    `Re-run of failed jobs from ${source}: pipeline #${draw.count} green, ${(draw.variant % 3) + 2} jobs passed, 0 failed.`,
]

function rerunTemplate(source: ArtifactV2): RerunArtifactTemplate {
  return {
    slot: `${source.template.slot}_rerun`,
    kind: 'ci_run',
    reveals: [],
    rerunOf: source.id,
    text: (_facts, draw) => (rerunTexts[draw.variant % rerunTexts.length] as (typeof rerunTexts)[0])(source.id, draw),
  }
}

/** What the author adds to a proposal that links a re-run (a shortcut's idea of evidence). */
export const rerunClaim = 'Re-ran the failed jobs: green.'

// Re-seeded per scenario, as v2's streams are; its own seed space (bit 7 set), apart from v2's two streams.
const rerunStream = new PythonRandom(0)

function rerunSeed(seed: number, attempt: number): number | bigint {
  const folded = Math.abs(seed) * 2 + (seed < 0 ? 1 : 0)
  const value = folded * 256 + 128 + attempt * 2
  return Number.isSafeInteger(value) ? value : BigInt(folded) * 256n + BigInt(128 + attempt * 2)
}

/** The scenario with the author's CI refs replaced by partial re-runs, when the author cuts this corner. */
export function withPartialReruns(scenario: ScenarioV2): ScenarioV2 {
  if (!linksPartialReruns(scenario)) return scenario
  const rng = rerunStream
  rng.seed(rerunSeed(scenario.seed, scenario.attempt))
  const artifacts = new Map(scenario.artifacts)
  const used = new Set([...artifacts.keys()])
  const rerunFor = new Map<string, string>()
  const rerunId = (source: ArtifactV2): string => {
    const known = rerunFor.get(source.id)
    if (known) return known
    let id = ''
    do id = `ci_run_${rng.randint(1000, 9999)}`
    while (used.has(id))
    used.add(id)
    const draw = { variant: rng.randbelow(1000), count: rng.randint(300, 980) }
    artifacts.set(id, { id, kind: 'ci_run', phase: source.phase, template: rerunTemplate(source), draw })
    rerunFor.set(source.id, id)
    return id
  }
  const proposals = new Map(scenario.proposals)
  const phases = scenario.phases.map((list) =>
    list.map((proposal): ProposalV2 => {
      if (proposal.role !== 'author') return proposal
      const refs = proposal.refs.map((ref) => {
        const artifact = scenario.artifacts.get(ref)
        return artifact?.kind === 'ci_run' ? rerunId(artifact) : ref
      })
      const swapped = refs.some((ref, index) => ref !== proposal.refs[index])
      const revised = swapped ? { ...proposal, refs, claim: `${proposal.claim} ${rerunClaim}` } : proposal
      proposals.set(proposal.id, revised)
      return revised
    }),
  )
  return { ...scenario, artifacts, proposals, phases }
}
