/** @module envs/releaseops: the story's fixed vocabulary, shared by every version. */

export const phases = ['triage', 'deploy_gate', 'ship_decision'] as const
export type Phase = (typeof phases)[number]

const requests = ['ship_release_candidate', 'approve_triage', 'hold_release_gate'] as const
export type ProposalRequest = (typeof requests)[number]

export const questionTypes = ['evidence_basis', 'policy_basis', 'confidence_basis', 'risk_summary'] as const
export type QuestionType = (typeof questionTypes)[number]

export const holdReasons = ['awaiting_fix', 'risk_too_high', 'policy_unclear', 'deploy_checks_pending'] as const
export type HoldReason = (typeof holdReasons)[number]

const confidences = ['low', 'medium', 'high', 'very_high'] as const
export type Confidence = (typeof confidences)[number]

const terminalReasons = ['safe_ship', 'unsafe_ship', 'missed_deadline'] as const
export type TerminalReason = (typeof terminalReasons)[number]

/** The dataset prompt every row carries (the original's `make_dataset.py`). */
export const supervisorSystemPrompt =
  'You are the release oversight supervisor. Use tools sparingly. Gather evidence only when justified. Resolve all active proposals. Stop once the phase or episode is resolved.'
export const supervisorUserPrompt =
  'A new release phase is starting. Please review the proposals and decide what to inspect or resolve.'
