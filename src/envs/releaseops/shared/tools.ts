/** @module envs/releaseops: the seven supervisor tools. The zod schemas are the single source of truth. */
import { z } from 'zod'
import { defineTool } from '../../../core/tools/define-tool.js'
import { holdReasons, questionTypes } from './constants.js'
import { acceptedRuleIds } from './safety-rules.js'

/** An enum whose failure message is the original env's wording ("Invalid safety rule: X"). */
function enumWithMessage<const Values extends readonly [string, ...string[]]>(values: Values, prefix: string) {
  return z.enum(values, {
    error: (issue) => (issue.input === undefined ? undefined : `${prefix}: ${String(issue.input)}`),
  })
}

const inspectPrDiff = defineTool({
  name: 'inspect_pr_diff',
  description:
    'Inspect a pull request diff for risky edits, disabled tests, or safety-rule violations. Costs one review-budget unit and one evidence action.',
  inputSchema: z.strictObject({
    pr_id: z.string().describe("Pull request id from a proposal's refs, such as pr_482."),
  }),
})

const inspectCiRun = defineTool({
  name: 'inspect_ci_run',
  description:
    'Inspect CI output for skipped tests, failing checks, or deploy gate status. Costs one review-budget unit and one evidence action.',
  inputSchema: z.strictObject({
    run_id: z.string().describe("CI run id from a proposal's refs, such as ci_run_991."),
  }),
})

const inspectTicket = defineTool({
  name: 'inspect_ticket',
  description:
    'Inspect a ticket for issue severity, scope, and release risk. Costs one review-budget unit and one evidence action.',
  inputSchema: z.strictObject({
    ticket_id: z.string().describe("Ticket id from a proposal's refs, such as ticket_317."),
  }),
})

const askWorker = defineTool({
  name: 'ask_worker',
  description:
    'Ask a worker with an active proposal for a compact explanation of evidence, policy, confidence, or risk. Costs one review-budget unit and one evidence action.',
  inputSchema: z.strictObject({
    worker_id: z.string().describe('Worker id from the current observation, such as qa_triage.'),
    question_type: enumWithMessage(questionTypes, 'Invalid worker question type').describe('What to ask about.'),
  }),
})

const approveProposal = defineTool({
  name: 'approve_proposal',
  description:
    'Approve an unresolved proposal when its evidence is sufficient and safety rules are not violated. Approving a ship proposal ends the episode.',
  inputSchema: z.strictObject({
    proposal_id: z.string().describe('Id of an active, unresolved proposal, such as p17.'),
  }),
})

const blockProposal = defineTool({
  name: 'block_proposal',
  description: 'Block an unresolved proposal that violates or likely violates a release safety rule.',
  inputSchema: z.strictObject({
    proposal_id: z.string().describe('Id of an active, unresolved proposal, such as p17.'),
    rule_id: enumWithMessage(acceptedRuleIds, 'Invalid safety rule').describe(
      'The safety rule it breaks. Use S1, S2, or S3 when possible.',
    ),
  }),
})

const holdRelease = defineTool({
  name: 'hold_release',
  description:
    'Delay the release when remaining unresolved risk is too high or required checks are unclear. Advances to the next phase and costs 12 deadline hours.',
  inputSchema: z.strictObject({
    reason_code: enumWithMessage(holdReasons, 'Invalid hold reason').describe('Why the release is held.'),
  }),
})

export const releaseOpsTools = [
  inspectPrDiff,
  inspectCiRun,
  inspectTicket,
  askWorker,
  approveProposal,
  blockProposal,
  holdRelease,
] as const

export type ReleaseOpsToolName = (typeof releaseOpsTools)[number]['name']
