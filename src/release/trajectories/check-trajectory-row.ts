/**
 * @module release/trajectories: every check of one trajectory row, read back or about to be written:
 * the exact row schema, labels, class rule, message structure and tool-call ids, the prompt rebuilt by a
 * fresh env reset, the tools column, leakage of the canonical answer into system/user, the replayed tool
 * calls (`replayToolCalls`), the terminal answer (the canonical JSON, which the env must reward 1.0: judged
 * once per category and level), and every thought. Returns coded issues (empty when the row is valid).
 */
import type { ChatTool } from '../../chat/chat-message.js'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { finalResponseAction, GradingEnv, gradingV1Spec } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { resetOptionsFor, terminalAnswerJson } from './build-trajectory.js'
import { compileRowCheck } from './compiled-row-check.js'
import { replayToolCalls } from './replay-tool-calls.js'
import { thoughtProblems } from './think/check-thought.js'
import { thinkTokens } from './think/think-tokens.js'
import { trajectoryClassOf } from './trajectory-class.js'
import type { ThinkSourceKind } from './trajectory-format.js'
import { type TrajectoryMessage, type TrajectoryRow, trajectoryRowSchema } from './trajectory-row.js'
import { structureErrors } from './trajectory-structure-errors.js'
// Rows carry the env's tools as VeRL shows them (one tool view for SFT, RL and the gate).
import { trajectoryTools as envTools } from './trajectory-tools.js'

export interface RowCheckContext {
  task: GradingTask
  env: GradingEnv
  dataset: string
  /** The tools every row must carry, and their `JSON.stringify` (a row holding this very object passes at once). */
  tools: readonly unknown[]
  toolsJson: string
  /** What the export report declares, when known: every row must agree. */
  declared?: { thinkSource: ThinkSourceKind; maxThinkTokens?: number }
}

/** The context of a release's rows: the env's tools as VeRL shows them, and what the report declares. */
export function trajectoryRowContext(options: {
  task: GradingTask
  dataset: string
  declared?: RowCheckContext['declared']
}): RowCheckContext & { tools: ChatTool[] } {
  const tools = envTools(gradingV1Spec)
  return {
    task: options.task,
    env: new GradingEnv({ task: options.task }),
    dataset: options.dataset,
    tools,
    toolsJson: JSON.stringify(tools),
    ...(options.declared ? { declared: options.declared } : {}),
  }
}

const templateTokens = ['<|im_start|>', '<|im_end|>', '<|endoftext|>']
const matchesRowSchema = compileRowCheck(trajectoryRowSchema)
const judgedByTask = new WeakMap<GradingTask, Map<string, { canonical: string; reward: number }>>()

function judgedAnswers(task: GradingTask): Map<string, { canonical: string; reward: number }> {
  let judged = judgedByTask.get(task)
  if (!judged) {
    judged = new Map()
    judgedByTask.set(task, judged)
  }
  return judged
}

const label = (path: string, message: string): InputIssue => ({ code: 'trajectory_label', path, message })
const thoughtIssue = (path: string, message: string): InputIssue => ({ code: 'trajectory_thought', path, message })
const thoughtAt = (index: number, message: string) => thoughtIssue(`messages[${index}].reasoning_content`, message)
const prompt = (index: number, message: string): InputIssue => ({
  code: 'trajectory_prompt',
  path: `messages[${index}].content`,
  message,
})
const answerIssue = (row: TrajectoryRow, message: string): InputIssue => ({
  code: 'trajectory_answer',
  path: `messages[${row.messages.length - 1}].content`,
  message,
})

function thoughtErrors(row: TrajectoryRow, context: RowCheckContext): InputIssue[] {
  const errors: InputIssue[] = []
  const declared = context.declared
  if (row.enable_thinking !== (row.think_source !== 'none'))
    errors.push(
      thoughtIssue('enable_thinking', `enable_thinking is ${row.enable_thinking} with think_source ${row.think_source}`),
    )
  if (declared && row.think_source !== declared.thinkSource)
    errors.push(
      thoughtIssue('think_source', `think_source is ${row.think_source}, the export report says ${declared.thinkSource}`),
    )
  row.messages.forEach((message, index) => {
    if (message.role !== 'assistant') return
    const thought = message.reasoning_content
    if (row.think_source === 'none' && thought !== '')
      errors.push(thoughtAt(index, `message ${index}: reasoning with thinking disabled`))
    for (const problem of thoughtProblems(thought))
      errors.push(thoughtAt(index, `message ${index} reasoning: ${problem.code}: ${problem.message}`))
    // A thought has at most one approximate token per character: short ones need no count.
    if (
      declared?.maxThinkTokens !== undefined &&
      thought.length > declared.maxThinkTokens &&
      thinkTokens(thought) > declared.maxThinkTokens
    )
      errors.push(
        thoughtAt(
          index,
          `message ${index} reasoning: ${thinkTokens(thought)} approximate tokens, over the release's ${declared.maxThinkTokens}`,
        ),
      )
  })
  return errors
}

/** Chat-template tokens in the task's system prompt (one check per task, not per row). */
export function promptTokenErrors(task: GradingTask): string[] {
  const token = templateTokens.find((candidate) => task.systemPrompt.includes(candidate))
  return token ? [`the task's system prompt contains the chat-template token ${token}`] : []
}

/** The schema's first five issues, or none when the row has the exact shape. */
function schemaErrors(raw: unknown): InputIssue[] {
  // The row schema has no transforms or defaults, so a row that passes is its own parse result.
  if (matchesRowSchema(raw)) return []
  const parsed = trajectoryRowSchema.safeParse(raw)
  if (parsed.success) return []
  return parsed.error.issues.slice(0, 5).map((issue) => ({
    code: 'trajectory_schema',
    path: issue.path.join('.') || 'row',
    message: `schema: ${issue.path.join('.') || 'row'}: ${issue.message}`,
  }))
}

/** The row's labels against the task and context: dataset, metadata keys, ground truth, level, class, tools. */
export function labelErrors(row: TrajectoryRow, context: Pick<RowCheckContext, 'task' | 'dataset' | 'tools' | 'toolsJson'>) {
  const { task } = context
  const errors: InputIssue[] = []
  if (row.dataset !== context.dataset) errors.push(label('dataset', `dataset is ${row.dataset}, expected ${context.dataset}`))
  const fields = task.taskConfig.metadata_fields
  if (Object.keys(row.metadata).join('\0') !== fields.join('\0'))
    errors.push(label('metadata', `metadata keys are [${Object.keys(row.metadata).join(', ')}], expected [${fields.join(', ')}]`))
  if (!task.choices.hasCategoryId(row.ground_truth))
    errors.push(label('ground_truth', `ground_truth ${row.ground_truth} is not a registry category`))
  if (!task.grading.levels.includes(row.ground_truth_level))
    errors.push(label('ground_truth_level', `ground_truth_level ${row.ground_truth_level} is not an approved level`))
  const expectedClass = trajectoryClassOf(row.source_id)
  if (row.trajectory_class !== expectedClass)
    errors.push(
      label(
        'trajectory_class',
        `trajectory_class is ${row.trajectory_class}, but sha256("tool-trajectory:"+source_id) mod 4 gives ${expectedClass}`,
      ),
    )
  if (row.tools !== context.tools && JSON.stringify(row.tools) !== context.toolsJson)
    errors.push({ code: 'trajectory_tools', path: 'tools', message: "tools differ from the grading env's tools" })
  return errors
}

/** Chat-template tokens in any message after the system one, and the ground truth in the system or user message. */
export function contentErrors(row: TrajectoryRow): InputIssue[] {
  const errors: InputIssue[] = []
  // The system message must equal the task's prompt (checked apart), whose tokens `promptTokenErrors` checks once.
  for (let index = 1; index < row.messages.length; index++) {
    const content = (row.messages[index] as TrajectoryMessage).content
    // Every template token starts with "<|": one scan settles almost every message.
    const token = content.includes('<|') ? templateTokens.find((candidate) => content.includes(candidate)) : undefined
    if (token)
      errors.push({
        code: 'trajectory_template_tokens',
        path: `messages[${index}].content`,
        message: `message ${index} contains the chat-template token ${token}`,
      })
  }
  const [system, user] = row.messages as [TrajectoryMessage, TrajectoryMessage]
  if (system.content.includes(row.ground_truth) || user.content.includes(row.ground_truth))
    errors.push({
      code: 'trajectory_answer_leak',
      path: 'messages',
      message: `the canonical ground truth ${row.ground_truth} appears in the system or user message`,
    })
  return errors
}

const sourceOf = (row: TrajectoryRow) => ({
  sourceId: row.source_id,
  metadata: row.metadata,
  groundTruth: row.ground_truth,
  groundTruthLevel: row.ground_truth_level,
})

/** The system and user messages against a fresh reset of the env for this row's source. */
function promptErrors(row: TrajectoryRow, env: GradingEnv): InputIssue[] {
  const [system, user] = row.messages as [TrajectoryMessage, TrajectoryMessage]
  const reset = env.reset({ options: resetOptionsFor(sourceOf(row)) })
  const [resetSystem, resetUser] = reset.observation.messages ?? []
  const errors: InputIssue[] = []
  if (system.content !== resetSystem?.content) errors.push(prompt(0, "the system message is not the env's prompt"))
  if (user.content !== resetUser?.content) errors.push(prompt(1, "the user message is not the env's prompt for this metadata"))
  return errors
}

/** The row's tool calls replayed on the env (right after `promptErrors` reset it for this row). */
function replayErrors(row: TrajectoryRow, { task, env }: RowCheckContext): InputIssue[] {
  const calls = row.tool_calls.map((call, turn) => ({
    name: call.name,
    arguments: call.arguments as JsonObject,
    content: (row.messages[3 + turn * 2] as TrajectoryMessage).content,
  }))
  const replayed = replayToolCalls({
    env,
    trajectoryClass: row.trajectory_class,
    metadata: row.metadata,
    answerChoiceId: task.choices.byCategory(row.ground_truth).choiceId,
    answerScope: task.toolbox.scopeOfCategory(row.ground_truth),
    calls,
  })
  return replayed.map((message) => ({ code: 'trajectory_replay', path: 'tool_calls', message }))
}

/** The canonical answer for the row's (category, level) and the env's reward for it, judged once per task. */
function judgedAnswer(task: GradingTask, row: TrajectoryRow): { canonical: string; reward: number } {
  const judged = judgedAnswers(task)
  const key = `${row.ground_truth}\0${row.ground_truth_level}`
  let verdict = judged.get(key)
  if (verdict === undefined) {
    // The env judges the canonical answer once per (category, level): its judgement is a pure function of them.
    // A fresh episode of its own, so what this row's replay did to the env cannot affect the verdict.
    const canonical = terminalAnswerJson(task.choices.byCategory(row.ground_truth).choiceId, row.ground_truth_level)
    const judge = new GradingEnv({ task })
    judge.reset({ options: resetOptionsFor(sourceOf(row)) })
    const final = judge.step({ name: finalResponseAction, arguments: { content: canonical } })
    verdict = { canonical, reward: final.terminated ? final.reward : Number.NaN }
    judged.set(key, verdict)
  }
  return verdict
}

function answerErrors(row: TrajectoryRow, task: GradingTask): InputIssue[] {
  const answer = (row.messages.at(-1) as TrajectoryMessage).content
  const verdict = judgedAnswer(task, row)
  if (answer !== verdict.canonical)
    return [answerIssue(row, `the answer ${answer} is not the canonical terminal JSON for the ground truth`)]
  if (verdict.reward !== 1) return [answerIssue(row, `the env scores the answer ${verdict.reward}, not 1`)]
  return []
}

export function checkTrajectoryRow(raw: unknown, context: RowCheckContext): InputIssue[] {
  const schema = schemaErrors(raw)
  if (schema.length > 0) return schema
  const row = raw as TrajectoryRow
  const labels = labelErrors(row, context)
  if (labels.length > 0) return labels
  const structure = structureErrors(row)
  if (structure.length > 0) return structure
  return [
    ...contentErrors(row),
    ...promptErrors(row, context.env),
    ...replayErrors(row, context),
    ...answerErrors(row, context.task),
    ...thoughtErrors(row, context),
  ]
}
