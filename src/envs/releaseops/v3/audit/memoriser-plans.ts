/**
 * @module envs/releaseops/v3/audit: the memoriser's fixed plans. A plan reads, in every phase, the
 * refs of one or two fixed locators (a team worker's ref of one kind: "qa_triage's ticket", "ci_fixer's
 * CI run"), nothing else, then decides as the general reader does from what they verified (block what
 * is verified broken, ship when nothing is). Fitted per (family, difficulty) on train, the lookup is the
 * learner that remembers which two artifacts settle each training slice, a likely attractor for
 * training on these rows; the held-out slices exist to catch it (decision 0046).
 */
import type { AuditStrategy } from '../../../../core/testing/exploit-audit.js'
import type { ArenaObservationView } from '../../arena/observation-view.js'
import { familySpecV3, seenFamiliesV3 } from '../families/index.js'
import { dissentFirstReaderOptions, evidenceReaderPolicy } from '../policies/evidence-reader.js'
import type { ReleaseOpsV3Observation } from '../releaseops-env.js'

interface Locator {
  worker: string
  kind: 'pr_' | 'ci_run_' | 'ticket_'
}

const kinds = ['pr_', 'ci_run_', 'ticket_'] as const

/** The team workers of the training families (their names are in every view). */
const teamWorkers = (): string[] => [...new Set(seenFamiliesV3.flatMap((family) => Object.values(familySpecV3(family).workers)))]

/** The first ref of each locator's kind among its worker's proposals this phase. */
function fixedReads(locators: readonly Locator[]) {
  return (view: ArenaObservationView) =>
    locators.flatMap(({ worker, kind }) =>
      view.proposals
        .filter((proposal) => proposal.worker === worker)
        .flatMap((proposal) => proposal.refs.filter((ref) => ref.startsWith(kind)))
        .slice(0, 1),
    )
}

function plan(locators: readonly Locator[]): AuditStrategy<ReleaseOpsV3Observation> {
  const name = `read[${locators.map(({ worker, kind }) => `${worker}:${kind.slice(0, -1)}`).join(',')}]`
  return {
    name,
    description: 'fixed reads, then block what they verified broken or ship',
    policy: () =>
      evidenceReaderPolicy({ ...dissentFirstReaderOptions, name, followNamed: false, readingList: fixedReads(locators) }),
  }
}

/** One or two locators: 12 single reads and 66 pairs over four workers × three kinds. */
export function memoriserPlans(): AuditStrategy<ReleaseOpsV3Observation>[] {
  const locators: Locator[] = teamWorkers().flatMap((worker) => kinds.map((kind) => ({ worker, kind })))
  const plans: AuditStrategy<ReleaseOpsV3Observation>[] = []
  locators.forEach((first, index) => {
    plans.push(plan([first]))
    for (const second of locators.slice(index + 1)) plans.push(plan([first, second]))
  })
  return plans
}
