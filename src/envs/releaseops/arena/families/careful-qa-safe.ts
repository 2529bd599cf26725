/** @module envs/releaseops/arena/families: a mostly safe docs release; restraint usually pays, but not always. */
import { qaDocsClaims } from '../../v1/texts.js'
import type { ArtifactTemplate, FamilySpec } from '../family-spec.js'
import { proposeAgain, shipProposal, triageProposal } from './proposal-templates.js'

const pipeline = (slot: string): ArtifactTemplate => ({
  slot,
  kind: 'ci_run',
  reveals: ['deploy_checks_passed', 'payment_tests_passing'],
  text: (facts, draw) =>
    `Release pipeline #${draw.count}: ${facts.payment_tests_passing ? 'all tests passed' : '2 payment tests failed'}; ${
      facts.deploy_checks_passed ? 'deploy gates all green' : 'canary gate PENDING'
    }.`,
})

const authorShip = shipProposal({
  role: 'author',
  refs: ['ci'],
  risk: [],
  claims: ['Deploy checks complete. All gates passed.'],
  stance: { payments_tests_must_pass: 'pass', deploy_checks_before_ship: 'pass' },
})

const thirdTriage = triageProposal({
  role: 'third',
  refs: ['ci'],
  risk: ['operations'],
  covers: ['deploy_checks_passed'],
  claims: ['Dashboards are quiet; the deploy looks healthy.'],
  stance: { deploy_checks_before_ship: 'pass' },
})

export const carefulQaSafe: FamilySpec = {
  id: 'careful_qa_safe',
  description: 'A documentation release with a confident ship; usually clean, occasionally a gate or a payment test is not.',
  workers: { author: 'release_manager', reviewer: 'qa_triage', third: 'sre' },
  defaultMix: 'careful__careful__overconfident',
  hazards: [
    { fact: 'deploy_checks_passed', tier: 'primary' },
    { fact: 'payment_tests_passing', tier: 'secondary' },
  ],
  badScale: 0.35,
  initial: {
    artifacts: [
      pipeline('ci'),
      {
        slot: 'ticket',
        kind: 'ticket',
        reveals: [],
        text: (_facts, draw) => `Ticket title: Doc updates. Fixed ${(draw.count % 9) + 2} typos.`,
      },
    ],
    proposals: [
      authorShip,
      triageProposal({
        role: 'reviewer',
        refs: ['ticket'],
        risk: ['docs'],
        covers: [],
        claims: qaDocsClaims,
        stance: {},
      }),
      thirdTriage,
    ],
  },
  revision: {
    artifacts: [pipeline('ci')],
    proposals: [
      proposeAgain(authorShip, ['Pipeline re-run on the new candidate; ready to ship.']),
      proposeAgain(thirdTriage, ['Deploy gates re-checked.']),
    ],
  },
}
