/**
 * Play: pick an env, a dataset row (or a family and a seed), start an HTTP session and call tools by
 * clicking. After each call the page shows the observation, the proposals, every result the episode
 * has turned up (newest first) and the reward: this step's, the episode's, and what the total is made
 * of. A grading env shows its field, catalog and levels and takes the final answer in a form of its
 * own. A refused action (`accepted: false`) is a failure. An argument value the env accepts under
 * several names is offered once, with its names together (`S1 · no_p1_open`).
 */
import { api, clear, describeError, el, formatNumber, notice, renderHeader } from './common.js'
import { renderEvidence, rewardExplanation } from './evidence-view.js'
import { answerForm, gradingPrompt } from './grading-view.js'
import { idSuggestions, renderObservation, rewardLine } from './observation-view.js'

const byId = (id) => document.getElementById(id)
const state = {
  env: '',
  rows: [],
  tools: [],
  metadata: null,
  aliases: {},
  session: null,
  observation: null,
  prompt: null,
  done: false,
  entries: [],
}

function option(value, label = value) {
  return el('option', { value }, label)
}

async function loadEnvs() {
  const index = await api('/')
  const select = byId('env')
  clear(
    select,
    index.envs.map((env) => option(env.id, env.default ? `${env.id} (default)` : env.id)),
  )
  select.value = index.default_env
  await loadEnv(select.value)
}

/** Forgets the episode on screen (another env, or none started yet). */
function clearEpisode() {
  Object.assign(state, { session: null, observation: null, prompt: null, done: false, entries: [] })
  clear(byId('observation'))
  clear(byId('history'))
  clear(byId('evidence-history'))
  byId('reward').textContent = ''
  byId('reward-explained').textContent = ''
  notice(byId('message'), 'info', '')
}

/** The page says which env is played and what it is (the grading env is no supervisor's job). */
function showEnvTitle(envId, metadata) {
  byId('title').textContent = `Play an episode of ${envId}`
  byId('env-description').textContent = metadata.description ?? ''
  document.title = `Play ${envId} · ReleaseOps`
}

async function loadEnv(envId) {
  state.env = envId
  clearEpisode()
  const [metadata, rows, aliases] = await Promise.all([
    api(`/envs/${envId}/metadata`),
    api(`/api/envs/${envId}/rows?limit=400`),
    api(`/api/envs/${envId}/argument-aliases`),
  ])
  state.metadata = metadata
  state.aliases = aliases.arguments
  showEnvTitle(envId, metadata)
  state.tools = metadata.tools
  renderTools()
  clear(
    byId('split'),
    rows.splits.map((split) => option(split)),
  )
  byId('split').value = rows.split ?? ''
  showRows(rows)
}

async function loadSplit(split) {
  showRows(await api(`/api/envs/${state.env}/rows?split=${encodeURIComponent(split)}&limit=400`))
}

function showRows(rows) {
  state.rows = rows.rows
  clear(
    byId('row'),
    option('', '(family and seed below)'),
    rows.rows.map((row) =>
      option(String(row.index), `#${row.index} ${row.family ?? ''} seed ${row.seed} ${row.difficulty ?? ''}`),
    ),
  )
  const families = [...new Set(rows.rows.map((row) => row.family).filter(Boolean))]
  clear(
    byId('family'),
    option('', '(env default)'),
    families.map((family) => option(family)),
  )
  if (rows.rows[0]) selectRow(rows.rows[0])
}

function selectRow(row) {
  byId('row').value = String(row.index)
  byId('family').value = row.family ?? ''
  byId('seed').value = String(row.seed)
}

function resetArguments() {
  const row = state.rows.find((item) => String(item.index) === byId('row').value)
  const seed = Number(byId('seed').value)
  const family = byId('family').value
  // A row unchanged: the reset arguments the server says the env takes for it.
  if (row && row.seed === seed && (row.family ?? '') === family) return row.reset
  return { ...(Number.isInteger(seed) && byId('seed').value !== '' ? { seed } : {}), ...(family ? { family } : {}) }
}

async function startEpisode() {
  notice(byId('message'), 'info', '')
  try {
    const reply = await api(`/envs/${state.env}/sessions`, { method: 'POST', body: resetArguments() })
    state.session = reply.session_id
    state.done = false
    state.entries = []
    state.prompt = gradingPrompt(reply.observation)
    clear(byId('history'))
    show(reply)
    notice(byId('message'), 'ok', `Episode started (session ${reply.session_id.slice(0, 8)}…).`)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

function show(reply) {
  state.observation = reply.observation
  renderObservation(byId('observation'), reply.observation, state.prompt, { evidence: false })
  renderEvidence(byId('evidence-history'), state.entries, state.prompt)
  byId('reward').textContent = rewardLine(reply)
  byId('reward-explained').textContent = rewardExplanation({
    reply,
    stepRewards: state.entries.map((entry) => entry.reply.reward),
    unfinished: state.metadata?.unfinished_episode_reward,
  })
  state.done = reply.done
  renderTools()
}

/**
 * Options of an enum argument: each value once, a value known under several names shown with all of
 * them (`S1 · no_p1_open`) and sent as its first (the tool description's preferred spelling).
 */
function enumOptions(name, values) {
  const aliases = state.aliases[name] ?? {}
  const groups = new Map()
  for (const value of values.map(String)) {
    const canonical = aliases[value] ?? value
    groups.set(canonical, [...(groups.get(canonical) ?? []), value])
  }
  return [...groups.values()].map((names) => option(names[0], names.join(' · ')))
}

function fieldFor(name, schema, suggestions) {
  if (Array.isArray(schema.enum)) return el('select', { name, 'data-testid': `arg-${name}` }, enumOptions(name, schema.enum))
  const kind = name.startsWith('proposal')
    ? 'proposal'
    : name.startsWith('worker')
      ? 'worker'
      : name.endsWith('_id')
        ? 'ref'
        : null
  if (schema.type === 'array') {
    // A list of ids (grading's choice_ids): typed comma-separated.
    return el('input', { name, type: 'text', placeholder: 'e.g. 3, 7', 'data-testid': `arg-${name}` })
  }
  const values = kind ? [...suggestions[kind]] : (suggestions.fields[name] ?? [])
  const prefix = { pr_id: 'pr_', run_id: 'ci_run', ticket_id: 'ticket_' }[name]
  const offered = prefix ? values.filter((value) => value.startsWith(prefix)) : values
  const listId = `list-${name}`
  return [
    el('input', {
      name,
      list: listId,
      type: schema.type === 'integer' || schema.type === 'number' ? 'number' : 'text',
      'data-testid': `arg-${name}`,
      value: offered[0] ?? '',
    }),
    el(
      'datalist',
      { id: listId },
      offered.map((value) => option(value)),
    ),
  ]
}

function renderTools() {
  const suggestions = { ...idSuggestions(state.observation), fields: promptFields() }
  const closed = state.session === null || state.done
  clear(
    byId('tools'),
    state.prompt ? answerForm(state.prompt, { disabled: closed, onAnswer: answer }) : null,
    state.tools.map((tool) => {
      const properties = tool.input_schema?.properties ?? {}
      const form = el(
        'form',
        { class: 'tool', 'data-testid': `tool-${tool.name}` },
        el('strong', { title: tool.description }, tool.name),
        Object.entries(properties).map(([name, schema]) => el('label', {}, `${name} `, fieldFor(name, schema, suggestions))),
        el('button', { type: 'submit', disabled: closed, 'data-testid': `call-${tool.name}` }, 'Call'),
      )
      form.addEventListener('submit', (event) => {
        event.preventDefault()
        callTool(tool, form)
      })
      return form
    }),
  )
}

/** The field metadata of a grading prompt, offered for same-named arguments (field_name, table_name). */
function promptFields() {
  const field = state.prompt?.field ?? {}
  return Object.fromEntries(Object.entries(field).map(([name, value]) => [name, value ? [String(value)] : []]))
}

function argumentsOf(tool, form) {
  const properties = tool.input_schema?.properties ?? {}
  const values = {}
  for (const [name, schema] of Object.entries(properties)) {
    const raw = form.elements.namedItem(name)?.value ?? ''
    if (raw === '') continue
    if (schema.type === 'array') {
      values[name] = raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    } else values[name] = schema.type === 'integer' || schema.type === 'number' ? Number(raw) : raw
  }
  return values
}

/** How a reply went: an error, an action the env refused (`accepted: false`), or done. */
function outcomeOf(toolName, reply) {
  if (reply.error) return { ok: false, tag: reply.error.code, message: `${reply.error.code}: ${reply.error.message}` }
  const result = reply.result ?? reply.observation?.result
  if (result && typeof result === 'object' && result.accepted === false) {
    const reason = result.reason ?? 'refused'
    const cost = result.hours_lost === undefined ? '' : ` (${result.hours_lost} h lost)`
    return { ok: false, tag: `rejected: ${reason}`, message: `${toolName} rejected: ${reason}${cost}.` }
  }
  const final = reply.observation?.final
  if (final && typeof final === 'object') {
    const verdict = final.reward > 0 ? 'correct' : `wrong${final.code ? ` (${final.code})` : ''}`
    return { ok: final.reward > 0, tag: verdict, message: `Answer ${verdict}: reward ${formatNumber(final.reward)}.` }
  }
  return { ok: true, tag: '', message: `${toolName} done.` }
}

async function step(toolName, args) {
  try {
    const reply = await api(`/envs/${state.env}/sessions/${state.session}/step`, {
      method: 'POST',
      body: { tool: toolName, arguments: args },
    })
    const outcome = outcomeOf(toolName, reply)
    state.entries.push({ step: state.entries.length + 1, call: { name: toolName, arguments: args }, reply })
    byId('history').append(
      el(
        'li',
        { class: outcome.ok ? 'good' : 'bad' },
        `${toolName}(${JSON.stringify(args)}) → reward ${formatNumber(reply.reward)}, total ${formatNumber(reply.cumulative_reward)}`,
        outcome.tag ? ` · ${outcome.tag}` : '',
        reply.done ? ` · ${reply.terminal_reason ?? 'done'}` : '',
      ),
    )
    show(reply)
    notice(byId('message'), outcome.ok ? 'ok' : 'error', outcome.message)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

function callTool(tool, form) {
  return step(tool.name, argumentsOf(tool, form))
}

function answer(args) {
  return step('final_response', args)
}

renderHeader('play.html')
byId('env').addEventListener('change', (event) =>
  loadEnv(event.target.value).catch((error) => notice(byId('message'), 'error', describeError(error))),
)
byId('split').addEventListener('change', (event) =>
  loadSplit(event.target.value).catch((error) => notice(byId('message'), 'error', describeError(error))),
)
byId('row').addEventListener('change', (event) => {
  const row = state.rows.find((item) => String(item.index) === event.target.value)
  if (row) selectRow(row)
})
byId('start').addEventListener('click', startEpisode)
loadEnvs().catch((error) => notice(byId('message'), 'error', describeError(error)))
