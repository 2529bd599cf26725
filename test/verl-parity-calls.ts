/**
 * Recorded calls for the Python/TypeScript parity test: tool calls (valid and every kind of bad argument),
 * terminal replies, final-turn completions and whole decoded multi-turn responses, each answered by a real
 * `GradingEnv` (and, for completions, by the qwen3.5 chat parser). Deterministic: one seeded generator.
 */
import { chatFormat } from '../src/chat/format-registry.js'
import type { ToolCall } from '../src/core/env/env-api.js'
import type { DatasetRow } from '../src/core/env/env-dataset.js'
import { PythonFloat } from '../src/core/python/python-json.js'
import { PythonRandom } from '../src/core/python/python-random.js'
import { finalResponseAction, GradingEnv, type GradingObservation } from '../src/envs/grading/grading-env.js'
import type { GradingTask } from '../src/envs/grading/grading-task.js'
import { gradingToolSchemas } from '../src/train/verl/task-bundle.js'

export type RecordedCall =
  | { kind: 'tool'; name: string; arguments?: unknown; text: string }
  | { kind: 'final'; dataset: string; ground_truth: string; level: string; content: string; final: unknown }
  | {
      kind: 'completion'
      dataset: string
      ground_truth: string
      level: string
      completion: string
      open_think: boolean
      reward: number
    }
  | {
      kind: 'response'
      dataset: string
      ground_truth: string
      level: string
      solution_str: string
      open_think: boolean
      reward: number
    }

type Labels = { metadata: Record<string, string>; choice: string; level: string }

function toolVariants(random: PythonRandom, labels: Labels, task: GradingTask): ToolCall[] {
  const { metadata } = labels
  const pick = <T>(items: readonly T[]): T => items[random.randbelow(items.length)] as T
  const choice = () => String(1 + random.randbelow(task.choices.choices.length))
  const name = pick(task.choices.choices).displayName
  const scope = pick(task.toolbox.scopeKeys())
  const field = metadata.field_name ?? ''
  const table = metadata.table_name ?? ''
  return [
    { name: 'search_categories', arguments: { field_name: field, table_name: table } },
    { name: 'search_categories', arguments: { field_name: name, table_name: table, top_k: 5 } },
    {
      name: 'search_categories',
      arguments: { field_name: `  ${field.toUpperCase()}\u3000`, table_name: metadata.table_description ?? '', scope },
    },
    { name: 'search_categories', arguments: { field_name: field, table_name: table, scope: 'no-such-scope' } },
    { name: 'search_categories', arguments: { field_name: field, table_name: table, top_k: pick([4, 6, 0, -1]) } },
    { name: 'search_categories', arguments: { field_name: field, table_name: table, top_k: new PythonFloat(5) } },
    {
      name: 'search_categories',
      arguments: {
        field_name: field,
        table_name: table,
        top_k: pick([5.5, '5', null, true, Number.NaN, Number.POSITIVE_INFINITY, 1e300]),
      },
    },
    { name: 'search_categories', arguments: { field_name: ' \t ', table_name: table } },
    {
      name: 'search_categories',
      arguments: { field_name: pick([1, null, [], {}, false]), table_name: pick([undefined, 'x', 2]) },
    },
    { name: 'search_categories', arguments: { field_name: field, table_name: table, extra: 1, '10': 2, '2': 3 } },
    { name: 'search_categories', arguments: JSON.stringify({ field_name: field, table_name: table }) },
    {
      name: 'search_categories',
      arguments: pick(['{not json', '[1, 2]', '"text"', '{"field_name": "a", "table_name": "b", "top_k": NaN}', '5']),
    },
    { name: 'search_categories', arguments: pick([null, [], 7, 'x']) },
    { name: 'search_categories' },
    {
      name: 'get_category_details',
      arguments: { choice_ids: [choice(), choice()].filter((id, index, ids) => ids.indexOf(id) === index) },
    },
    { name: 'get_category_details', arguments: { choice_ids: [labels.choice] } },
    { name: 'get_category_details', arguments: { choice_ids: [` ${choice()} `, '1'] } },
    { name: 'get_category_details', arguments: { choice_ids: ['3', ' 3'] } },
    { name: 'get_category_details', arguments: { choice_ids: ['999', '0', choice()] } },
    {
      name: 'get_category_details',
      arguments: { choice_ids: pick([[], ['1', '2', '3', '4', '5', '6'], [1, '2', null], '3', ['  '], [[1]]]) },
    },
    { name: 'get_category_details', arguments: { choice_ids: ['1'], limit: 2 } },
    { name: 'get_category_examples', arguments: { choice_ids: [choice()], limit: pick([1, 2, 3, 5]) } },
    {
      name: 'get_category_examples',
      arguments: { choice_ids: [labels.choice, choice()].filter((id, index, ids) => ids.indexOf(id) === index) },
    },
    {
      name: 'get_category_examples',
      arguments: { choice_ids: [choice()], limit: pick([0, 6, 2.5, null, '2', -9007199254740992]) },
    },
    { name: 'get_category_examples', arguments: { choice_ids: ['abc'], limit: 2, foo: 'bar' } },
    { name: 'browse_categories', arguments: {} },
    { name: 'browse_categories', arguments: pick([{ scope }, { a: 1, b: 2 }]) },
    { name: pick(['lookup_category', 'Search_Categories', '']), arguments: {} },
  ]
}

function finalVariants(random: PythonRandom, labels: Labels, task: GradingTask): string[] {
  const pick = <T>(items: readonly T[]): T => items[random.randbelow(items.length)] as T
  const wrongChoice = String(
    1 + ((Number(labels.choice) + random.randbelow(task.choices.choices.length - 1)) % task.choices.choices.length),
  )
  const wrongLevel = pick(task.grading.levels.filter((level) => level !== labels.level))
  const right = { answer: labels.choice, level: labels.level }
  return [
    JSON.stringify(right),
    `{"answer": "${labels.choice}", "level": "${labels.level}"}`,
    ` \n${JSON.stringify({ level: labels.level, answer: ` ${labels.choice}\u3000` })}\n `,
    JSON.stringify({ answer: wrongChoice, level: labels.level }),
    JSON.stringify({ answer: labels.choice, level: wrongLevel }),
    pick([
      JSON.stringify({ answer: '999', level: labels.level }),
      JSON.stringify({ answer: labels.choice, level: 'L9' }),
      JSON.stringify({ answer: Number(labels.choice), level: labels.level }),
      JSON.stringify({ answer: labels.choice, level: null }),
      JSON.stringify({ answer: '  ', level: labels.level }),
      JSON.stringify({ answer: labels.choice, level: labels.level, reason: 'x' }),
      JSON.stringify({ answer: labels.choice }),
      `{"answer": "${labels.choice}", "answer": "${labels.choice}", "level": "${labels.level}"}`,
      `\`\`\`json\n${JSON.stringify(right)}\n\`\`\``,
      `${JSON.stringify(right)} done`,
      `[${JSON.stringify(right)}]`,
      `The answer is ${labels.choice} at ${labels.level}.`,
      '',
      '   ',
      'NaN',
      `{"answer": "${labels.choice}", "level": "${labels.level}", "extra": {"nested": [1, {"k": "v", "k": "w"}]}}`,
      `\u3000${JSON.stringify(right)}`,
      `{"ключ": 1, "answer": "${labels.choice}", "level": "${labels.level}"}`,
      '<tool_call>\n<function=browse_categories>\n</function>\n</tool_call>',
    ]),
  ]
}

/** What the env receives for a recorded value: Python floats are plain numbers on the JavaScript side. */
function jsValue(value: unknown): unknown {
  if (value instanceof PythonFloat) return value.value
  if (Array.isArray(value)) return value.map(jsValue)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsValue(item)]))
  return value
}

/** Thinking on: the reply starts inside the prompt's `<think>`; off: an empty think block was prefilled. */
function completionFor(content: string, openThink: boolean, random: PythonRandom): string {
  if (!openThink) return content
  const reasoning = random.random() < 0.5 ? 'The field names a coil; search results agree.' : ''
  return random.random() < 0.1 ? `${reasoning}${content}` : `${reasoning}\n</think>\n\n${content}`
}

export function recordParityCalls(options: {
  task: GradingTask
  dataset: string
  rows: readonly DatasetRow[]
  minimum: number
  seed: number
}): RecordedCall[] {
  const random = new PythonRandom(options.seed)
  const env = new GradingEnv({ task: options.task })
  const format = chatFormat('qwen3.5')
  const tools = gradingToolSchemas()
  const calls: RecordedCall[] = []
  let episode = 0
  const count = (kind: RecordedCall['kind']) => calls.filter((call) => call.kind === kind).length
  while (count('tool') < options.minimum || count('final') < options.minimum / 2) {
    const row = options.rows[episode++ % options.rows.length] as DatasetRow
    const extra = row.extra_info as { metadata: Record<string, string>; ground_truth_level: string }
    const groundTruth = (row.reward_model as { ground_truth: string }).ground_truth
    const labels = {
      metadata: extra.metadata,
      choice: options.task.choices.byCategory(groundTruth).choiceId,
      level: extra.ground_truth_level,
    }
    const variants = toolVariants(random, labels, options.task)
    const transcript: string[] = []
    env.reset({ options: { row } })
    for (let turn = 0; turn < 8; turn++) {
      const call = variants[random.randbelow(variants.length)] as ToolCall
      const step = env.step({ name: call.name, arguments: jsValue(call.arguments) })
      const text = env.render(step.observation as GradingObservation)
      calls.push({ kind: 'tool', name: call.name, ...(call.arguments === undefined ? {} : { arguments: call.arguments }), text })
      if (turn < 3)
        transcript.push(
          `<tool_call>\n<function=${call.name}>\n</function>\n</tool_call>\nuser\n<tool_response>\n${text}\n</tool_response>\nassistant\n`,
        )
    }
    for (const content of finalVariants(random, labels, options.task)) {
      const label = { dataset: options.dataset, ground_truth: groundTruth, level: labels.level }
      env.reset({ options: { row } })
      const final = env.step({ name: finalResponseAction, arguments: { content } }).observation.final
      calls.push({ kind: 'final', ...label, content, final })
      const openThink = random.random() < 0.5
      const completion = completionFor(content, openThink, random)
      const parsed = format.parse(completion, { tools, openThink })
      env.reset({ options: { row } })
      const reward = env.step({ name: finalResponseAction, arguments: { content: parsed.content ?? '' } }).reward
      calls.push({ kind: 'completion', ...label, completion, open_think: openThink, reward })
      const prefix = openThink ? '<think>\n' : '<think>\n\n</think>\n\n'
      const special = random.random() < 0.5
      // A first-turn answer is the completion alone (the generation prompt belongs to the prompt).
      const body = random.random() < 0.25 ? completion : `${transcript.join('')}${prefix}${completion}`
      const solution = special
        ? `${body.replaceAll('\nuser\n', '<|im_end|>\n<|im_start|>user\n').replaceAll('\nassistant\n', '<|im_end|>\n<|im_start|>assistant\n')}<|im_end|>`
        : body
      calls.push({ kind: 'response', ...label, solution_str: solution, open_think: openThink, reward })
    }
  }
  return calls
}
