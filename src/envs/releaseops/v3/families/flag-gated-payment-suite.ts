/**
 * @module envs/releaseops/v3/families: the payment suite moves behind a feature flag. Whether it ran
 * shows only by combining two artifacts: the PR names the flag that now gates the suite, the CI run
 * lists the flags it ran with. Either one alone is uniform over flag names whatever the fact; the
 * deploy checks show in the CI run alone. The ship cites the CI run and a release note; only the
 * reviewer's and the author's triage proposals cite the PR.
 */

import { holdProposal, proposeAgain, shipProposal, triageProposal } from '../../arena/families/proposal-templates.js'
import type { ArtifactDraw, ArtifactTemplate, FamilySpec } from '../../arena/family-spec.js'
import type { JointArtifactTemplate } from '../joint-reveal.js'

const flagNames = ['pay_suite_v2', 'payments_runner_next', 'checkout_tests_flagged', 'pay_gate_rollout', 'suite_split_payments']

/** The flag the PR says gates the suite (from the PR's visible draw). */
const gateFlag = (draw: ArtifactDraw): string => flagNames[draw.variant % flagNames.length] as string
/** Another flag, uniform over the rest (from the CI run's visible draw). */
const otherFlag = (gate: ArtifactDraw, own: ArtifactDraw): string =>
  flagNames[((gate.variant % flagNames.length) + 1 + (own.variant % (flagNames.length - 1))) % flagNames.length] as string

const flagPr = (slot: string): JointArtifactTemplate => ({
  slot,
  kind: 'pr',
  reveals: [],
  joint: { facts: ['payment_tests_disabled'], partner: 'ci' },
  text: (_facts, draw) =>
    `Moves the payments integration suite to the flag-gated runner: it now runs only when \`${gateFlag(draw)}\` is enabled in the pipeline.`,
})

const flagRun = (slot: string): JointArtifactTemplate => ({
  slot,
  kind: 'ci_run',
  reveals: ['deploy_checks_passed'],
  joint: { facts: ['payment_tests_disabled'], partner: 'pr' },
  text: (facts, draw, partner) => {
    const flag =
      partner === undefined
        ? flagNames[draw.variant % flagNames.length]
        : facts.payment_tests_disabled
          ? otherFlag(partner, draw)
          : gateFlag(partner)
    const deploy = facts.deploy_checks_passed ? 'deploy gate: canary and rollback drill PASSED' : 'deploy gate: canary NOT RUN'
    return `Pipeline #${draw.count}: all jobs green; flags enabled: \`${flag}\`; ${deploy}.`
  },
})

const releaseNote: ArtifactTemplate = {
  slot: 'ticket',
  kind: 'ticket',
  reveals: [],
  text: () => 'Release note: payments suite migrated to the flag-gated runner; no customer-facing change.',
}

const authorShip = shipProposal({
  role: 'author',
  refs: ['ci', 'ticket'],
  risk: ['release', 'deploy'],
  claims: ['Pipeline is green and the release note is filed; ship it.', 'All jobs green on the candidate; ready to ship.'],
  stance: { payments_tests_must_pass: 'pass', deploy_checks_before_ship: 'pass' },
})

const thirdTriage = triageProposal({
  role: 'third',
  refs: ['pr'],
  risk: ['ci'],
  covers: ['payment_tests_disabled'],
  claims: ['Runner migration only; the payment suite is unchanged.'],
  stance: { payments_tests_must_pass: 'pass' },
})

export const flagGatedPaymentSuite: FamilySpec = {
  id: 'flag_gated_payment_suite',
  description:
    'The payment suite moved behind a feature flag; whether it ran shows only by reading the PR (which flag) with the CI run (which flags were on).',
  workers: { author: 'release_manager', reviewer: 'qa_triage', third: 'ci_fixer' },
  defaultMix: 'deadline__careful__overconfident',
  hazards: [
    { fact: 'payment_tests_disabled', tier: 'primary' },
    { fact: 'deploy_checks_passed', tier: 'secondary' },
  ],
  initial: {
    artifacts: [flagPr('pr'), flagRun('ci'), releaseNote],
    proposals: [
      authorShip,
      holdProposal({
        role: 'reviewer',
        refs: ['pr'],
        risk: ['payments', 'ci'],
        claims: ['Hold until someone confirms the flag-gated payment suite actually ran.'],
        stance: { payments_tests_must_pass: 'fail' },
      }),
      thirdTriage,
    ],
  },
  revision: {
    artifacts: [flagPr('pr'), flagRun('ci'), releaseNote],
    proposals: [
      proposeAgain(authorShip, ['Flags fixed and the pipeline re-run; ready to ship.']),
      proposeAgain(thirdTriage, ['Flag wiring corrected in the runner config.']),
    ],
  },
}
