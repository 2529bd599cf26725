/**
 * The grading env (`grading-v1`) for a person: its reset observation is a chat prompt, so the field to
 * classify, the approved levels and the catalog are read out of the prompt's text (the lines the env
 * writes: `Approved sensitivity levels:` + JSON, `Catalog (choice_id|name):` + `id|name` lines, and the
 * user message's field JSON) and shown as tables; tool results as tables; the final verdict as a line.
 */
import { el, formatNumber, table } from './common.js'

/** The parts of a grading prompt, or null when the observation is no grading prompt. */
export function gradingPrompt(observation) {
  const messages = observation?.messages
  if (!Array.isArray(messages) || messages.length < 2) return null
  const system = String(messages[0]?.content ?? '')
  const user = String(messages.at(-1)?.content ?? '')
  const catalogAt = system.indexOf('Catalog (choice_id|name):')
  if (catalogAt < 0) return null
  const levelsLine = /Approved sensitivity levels:\n(.+)\n/.exec(system)?.[1]
  let levels = []
  try {
    levels = JSON.parse(levelsLine ?? '[]')
  } catch {
    levels = []
  }
  const catalog = system
    .slice(catalogAt)
    .split('\n')
    .slice(1)
    .map((line) => /^([^|\s]+)\|(.+)$/.exec(line))
    .filter(Boolean)
    .map((match) => ({ choice_id: match[1], name: match[2] }))
  let field = {}
  try {
    field = JSON.parse(user.slice(user.indexOf('{')))
  } catch {
    field = {}
  }
  return { instructions: system.slice(0, system.indexOf('Approved sensitivity levels:')).trim(), levels, catalog, field }
}

function fieldFacts(field) {
  return el(
    'dl',
    { class: 'facts', 'data-testid': 'grading-field' },
    Object.entries(field).map(([name, value]) => [el('dt', {}, name), el('dd', {}, String(value) || '–')]),
  )
}

/** A tool result as tables where its shape is known (candidates, categories, groups), else JSON. */
export function resultView(result) {
  if (Array.isArray(result?.candidates)) {
    return table(
      [
        ['choice', (item) => item.choice_id],
        ['name', (item) => item.name],
        ['summary', (item) => item.summary],
      ],
      result.candidates,
      { 'data-testid': 'grading-candidates' },
    )
  }
  if (Array.isArray(result?.categories)) {
    return table(
      [
        ['choice', (item) => item.choice_id],
        ['name', (item) => item.name],
        ['description', (item) => item.description ?? (item.descriptions ?? []).join(' · ')],
        [
          'examples',
          (item) =>
            (item.examples ?? [])
              .map((example) => (typeof example === 'string' ? example : JSON.stringify(example)))
              .join('; ') || '–',
        ],
      ],
      result.categories,
      { 'data-testid': 'grading-categories' },
    )
  }
  if (Array.isArray(result?.groups)) {
    return table(
      [
        ['scope_key', (item) => item.scope_key],
        ['categories', (item) => item.category_count],
      ],
      result.groups,
      { 'data-testid': 'grading-groups' },
    )
  }
  return el('pre', { class: 'wrap' }, JSON.stringify(result, null, 2))
}

function finalLine(final) {
  const verdict = final.reward > 0 ? 'good' : 'bad'
  const parts = [
    final.answer ? `answer ${final.answer.choice_id ?? '–'} at ${final.answer.level ?? '–'}` : 'no valid answer',
    `category ${final.category_correct ? 'correct' : 'wrong'}`,
    `level ${final.level_correct ? 'correct' : 'wrong'}`,
    `reward ${formatNumber(final.reward)}`,
    final.code ? `${final.code}: ${final.reason ?? ''}` : null,
  ].filter(Boolean)
  return el('div', { class: `notice ${verdict === 'good' ? 'ok' : 'error'}`, 'data-testid': 'grading-final' }, parts.join(' · '))
}

/** The grading view: the field, the last result (unless `result: false`) or verdict, the levels and the catalog. */
export function gradingSections(prompt, observation, { result = true } = {}) {
  return [
    el('section', {}, el('h3', {}, 'Field to classify'), fieldFacts(prompt.field)),
    observation?.final ? finalLine(observation.final) : null,
    result && observation?.result
      ? el(
          'section',
          { 'data-testid': 'evidence' },
          el('h3', {}, `Result of ${observation.tool ?? 'the call'}`),
          resultView(observation.result),
        )
      : null,
    el(
      'section',
      {},
      el('h3', {}, 'Approved levels'),
      table(
        [
          ['level', ([code]) => code],
          ['meaning', ([, text]) => text],
        ],
        prompt.levels,
        { 'data-testid': 'grading-levels' },
      ),
    ),
    el(
      'details',
      { 'data-testid': 'grading-catalog' },
      el('summary', {}, `Catalog (${prompt.catalog.length} categories)`),
      table(
        [
          ['choice', (item) => item.choice_id],
          ['name', (item) => item.name],
        ],
        prompt.catalog,
      ),
    ),
    el('details', {}, el('summary', {}, 'Instructions the model sees'), el('p', { class: 'instructions' }, prompt.instructions)),
  ]
}

/** The form that sends the final answer (`final_response`, the reply a model ends with). */
export function answerForm(prompt, { disabled, onAnswer }) {
  const choice = el(
    'select',
    { name: 'answer', 'data-testid': 'answer-choice' },
    prompt.catalog.map((item) => el('option', { value: item.choice_id }, `${item.choice_id} · ${item.name}`)),
  )
  const level = el(
    'select',
    { name: 'level', 'data-testid': 'answer-level' },
    prompt.levels.map(([code]) => el('option', { value: code }, code)),
  )
  const form = el(
    'form',
    { class: 'tool answer', 'data-testid': 'tool-final_response' },
    el('strong', { title: 'The terminal reply: {"answer": choice_id, "level": code}' }, 'final_response (answer)'),
    el('label', {}, 'category ', choice),
    el('label', {}, 'level ', level),
    el('button', { type: 'submit', disabled, 'data-testid': 'call-final_response' }, 'Answer'),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    onAnswer({ content: JSON.stringify({ answer: choice.value, level: level.value }) })
  })
  return form
}
