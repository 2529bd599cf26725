/**
 * Play: pick an env, a dataset row (or a family and a seed), start an HTTP session and call tools by
 * clicking. After each call the page shows the observation, the proposals, the evidence returned and
 * the reward (this step's and the episode's).
 */
import { api, clear, describeError, el, formatNumber, notice, renderHeader } from './common.js'
import { idSuggestions, renderObservation, rewardLine } from './observation-view.js'

const byId = (id) => document.getElementById(id)
const state = { env: '', rows: [], tools: [], session: null, observation: null, done: false }

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

async function loadEnv(envId) {
  state.env = envId
  const [metadata, rows] = await Promise.all([api(`/envs/${envId}/metadata`), api(`/api/envs/${envId}/rows?limit=400`)])
  state.tools = metadata.tools
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
  if (row && row.seed === seed && (row.family ?? '') === family) {
    const { index: _index, split: _split, env_id: _envId, ...fields } = row
    return fields
  }
  return { ...(Number.isInteger(seed) && byId('seed').value !== '' ? { seed } : {}), ...(family ? { family } : {}) }
}

async function startEpisode() {
  notice(byId('message'), 'info', '')
  try {
    const reply = await api(`/envs/${state.env}/sessions`, { method: 'POST', body: resetArguments() })
    state.session = reply.session_id
    state.done = false
    clear(byId('history'))
    show(reply)
    notice(byId('message'), 'ok', `Episode started (session ${reply.session_id.slice(0, 8)}…).`)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

function show(reply) {
  state.observation = reply.observation
  renderObservation(byId('observation'), reply.observation)
  byId('reward').textContent = rewardLine(reply)
  state.done = reply.done
  renderTools()
}

function fieldFor(name, schema, suggestions) {
  if (Array.isArray(schema.enum)) {
    return el(
      'select',
      { name, 'data-testid': `arg-${name}` },
      schema.enum.map((value) => option(String(value))),
    )
  }
  const kind = name.startsWith('proposal')
    ? 'proposal'
    : name.startsWith('worker')
      ? 'worker'
      : name.endsWith('_id')
        ? 'ref'
        : null
  const values = kind ? [...suggestions[kind]] : []
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
  const suggestions = idSuggestions(state.observation)
  clear(
    byId('tools'),
    state.tools.map((tool) => {
      const properties = tool.input_schema?.properties ?? {}
      const form = el(
        'form',
        { class: 'tool', 'data-testid': `tool-${tool.name}` },
        el('strong', { title: tool.description }, tool.name),
        Object.entries(properties).map(([name, schema]) => el('label', {}, `${name} `, fieldFor(name, schema, suggestions))),
        el(
          'button',
          { type: 'submit', disabled: state.session === null || state.done, 'data-testid': `call-${tool.name}` },
          'Call',
        ),
      )
      form.addEventListener('submit', (event) => {
        event.preventDefault()
        callTool(tool, form)
      })
      return form
    }),
  )
}

function argumentsOf(tool, form) {
  const properties = tool.input_schema?.properties ?? {}
  const values = {}
  for (const [name, schema] of Object.entries(properties)) {
    const raw = form.elements.namedItem(name)?.value ?? ''
    if (raw === '') continue
    values[name] = schema.type === 'integer' || schema.type === 'number' ? Number(raw) : raw
  }
  return values
}

async function callTool(tool, form) {
  const args = argumentsOf(tool, form)
  try {
    const reply = await api(`/envs/${state.env}/sessions/${state.session}/step`, {
      method: 'POST',
      body: { tool: tool.name, arguments: args },
    })
    byId('history').append(
      el(
        'li',
        { class: reply.error ? 'bad' : 'good' },
        `${tool.name}(${JSON.stringify(args)}) → reward ${formatNumber(reply.reward)}, total ${formatNumber(reply.cumulative_reward)}`,
        reply.error ? ` · ${reply.error.code}` : '',
        reply.done ? ` · ${reply.terminal_reason ?? 'done'}` : '',
      ),
    )
    show(reply)
    notice(
      byId('message'),
      reply.error ? 'error' : 'ok',
      reply.error ? `${reply.error.code}: ${reply.error.message}` : `${tool.name} done.`,
    )
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
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
