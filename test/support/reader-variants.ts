/**
 * Test support (issue 27): the general readers `dissent-first-reader` was chosen from, on `train`
 * only (decision 0046). Each is the shipped reader with one or two options changed; `skip-rerun-claims`
 * is kept apart: its rule keys on the wording only the held-out mix's author writes, so train cannot
 * see it and it is not a candidate for the ladder.
 */
import { rerunClaim } from '../../src/envs/releaseops/v3/partial-rerun.js'
import {
  dissentFirstReaderOptions,
  type EvidenceReaderOptions,
  evidenceReaderPolicy,
  readingOrder,
} from '../../src/envs/releaseops/v3/policies/evidence-reader.js'

const shipped = dissentFirstReaderOptions

/** Every variant tried, by name: the options that differ from the shipped reader's. */
export const readerVariants: Record<string, Partial<EvidenceReaderOptions>> = {
  'as cited (no kind order), no follow': { kindOrder: [], followNamed: false },
  'as cited, follow': { kindOrder: [] },
  'no follow': { followNamed: false },
  'tickets first': { kindOrder: ['ticket_'] },
  'PRs first': { kindOrder: ['pr_'] },
  'tickets, CI runs, PRs': { kindOrder: ['ticket_', 'ci_run_', 'pr_'] },
  'most-cited first': { mostCitedFirst: true },
  'ship, vouchers, dissenters': { order: ['ship', 'vouchers', 'dissenters'] },
  'dissenters, vouchers, ship': { order: ['dissenters', 'vouchers', 'ship'] },
  'then every other ref': { order: ['dissenters', 'ship', 'vouchers', 'rest'] },
  'every ref in view order': { order: ['rest'] },
  'ask the dissenter when scarce': { askWhenScarce: true },
  'hold when refs stay unread': { holdWhenUnread: true },
  'block the ship first': { blockFirst: 'ship' },
  'block the ship first, no re-block': { blockFirst: 'ship', blockReported: false },
  'no re-block': { blockReported: false },
}

export function readerVariantPolicy(name: string) {
  return evidenceReaderPolicy({ ...shipped, ...readerVariants[name], name })
}

/** The shipped reader plus "skip the CI refs of a proposal that says it re-ran the failed jobs". */
export function skipRerunClaimsReaderPolicy() {
  return evidenceReaderPolicy({
    ...shipped,
    name: 'skip-rerun-claims',
    readingList: (view) => {
      const skipped = new Set(
        view.proposals
          .filter((item) => item.claim.includes(rerunClaim))
          .flatMap((item) => item.refs.filter((ref) => ref.startsWith('ci_run_'))),
      )
      return readingOrder(view, shipped).filter((ref) => !skipped.has(ref))
    },
  })
}
