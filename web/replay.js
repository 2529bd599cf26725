/**
 * Replay: open an episodes file (from the outputs root, or a local file), filter its episodes (policy,
 * family, slice, outcome), pick one, and step through it on a timeline and a reward chart (the total
 * after each step and each step's reward). The recorded calls are re-run in a fresh server session
 * from the same row, so every step shows the real observation and the evidence up to it; each step's
 * reward is compared with the recorded one (envs are deterministic, so they must match).
 */
import { api, clear, describeError, el, formatNumber, notice, renderHeader, table } from './common.js'
import { renderEvidence, rewardExplanation } from './evidence-view.js'
import { renderObservation, rewardLine } from './observation-view.js'

const byId = (id) => document.getElementById(id)
const resultKeys = new Set([
  'policy',
  'reward',
  'terminal_reason',
  'terminated',
  'truncated',
  'end',
  'step_count',
  'metrics',
  'outcome',
  'steps',
])
const state = { episodes: [], frames: [], index: 0, defaultEnv: '', unfinished: undefined, chart: null }
/** The list's filters: select id → what of an episode it matches. */
const filters = {
  'policy-filter': (episode) => episode.policy,
  'family-filter': (episode) => episode.row.family,
  'slice-filter': (episode) => episode.row.split,
  'outcome-filter': (episode) => (episode.end === undefined ? undefined : String(episode.end)),
}

/** Parses a policy (`releaseops eval --episodes-out`) or LLM episodes file. */
export function parseEpisodes(text) {
  const episodes = []
  for (const [number, line] of text.split('\n').entries()) {
    if (!line.trim()) continue
    let value
    try {
      value = JSON.parse(line)
    } catch {
      throw new Error(`line ${number + 1} is not JSON`)
    }
    const row = value.row ?? Object.fromEntries(Object.entries(value).filter(([key]) => !resultKeys.has(key)))
    episodes.push({
      line: number + 1,
      row,
      policy: value.policy ?? '?',
      reward: value.reward,
      end: value.terminal_reason ?? value.end,
      steps: value.steps ?? [],
    })
  }
  return episodes
}

async function loadFiles() {
  const [listing, index] = await Promise.all([api('/outputs/ls?depth=8'), api('/')])
  state.defaultEnv = index.default_env
  clear(
    byId('env'),
    index.envs.map((env) => el('option', { value: env.id }, env.id)),
  )
  byId('env').value = index.default_env
  const files = listing.entries.filter(
    (entry) => entry.type === 'file' && /episodes.*\.jsonl$|\.episodes\.jsonl$/.test(entry.path),
  )
  clear(
    byId('file'),
    files.length
      ? files.map((entry) => el('option', { value: entry.path }, entry.path))
      : el('option', { value: '' }, '(no episodes files yet)'),
  )
}

async function loadFromOutputs() {
  const path = byId('file').value
  if (!path) return
  const response = await fetch(`/outputs/file?path=${encodeURIComponent(path)}`, { headers: authHeaders() })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  showEpisodes(parseEpisodes(await response.text()), path)
}

function authHeaders() {
  const token = sessionStorage.getItem('releaseops.token')
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** Episodes per page of the list: any number of episodes stays reachable, a page at a time. */
const pageSize = 100

function showEpisodes(episodes, source) {
  state.episodes = episodes
  state.page = 0
  notice(byId('message'), 'ok', `${episodes.length} episodes from ${source}`)
  for (const [id, read] of Object.entries(filters)) {
    const values = [...new Set(episodes.map(read).filter((value) => value !== undefined && value !== null))].sort()
    clear(
      byId(id),
      el('option', { value: '' }, `all (${values.length})`),
      values.map((value) => el('option', { value }, String(value))),
    )
  }
  renderPage()
}

function filtered() {
  const chosen = Object.entries(filters).filter(([id]) => byId(id).value !== '')
  return state.episodes.filter((episode) => chosen.every(([id, read]) => String(read(episode)) === byId(id).value))
}

function renderPage() {
  const episodes = filtered()
  const pages = Math.max(1, Math.ceil(episodes.length / pageSize))
  state.page = Math.max(0, Math.min(state.page ?? 0, pages - 1))
  const start = state.page * pageSize
  const shown = episodes.slice(start, start + pageSize)
  byId('page-info').textContent = episodes.length
    ? `${start + 1}–${start + shown.length} of ${episodes.length} · page ${state.page + 1}/${pages}`
    : 'no episodes'
  byId('page-previous').disabled = state.page === 0
  byId('page-next').disabled = state.page >= pages - 1
  clear(
    byId('episodes'),
    table(
      [
        ['#', (episode) => String(episode.line)],
        ['policy', (episode) => episode.policy],
        ['family', (episode) => episode.row.family ?? '–'],
        ['slice', (episode) => episode.row.split ?? '–'],
        ['seed', (episode) => String(episode.row.seed)],
        ['reward', (episode) => formatNumber(episode.reward)],
        ['end', (episode) => String(episode.end ?? '–')],
        ['steps', (episode) => String(episode.steps.length)],
        [
          '',
          (episode) =>
            el('button', { type: 'button', 'data-testid': `replay-${episode.line}`, onclick: () => replay(episode) }, 'Replay'),
        ],
      ],
      shown,
      { 'data-testid': 'episode-table' },
    ),
  )
}

function resetArguments(row) {
  const { split: _split, env_id: _envId, ...fields } = row
  return fields
}

async function replay(episode) {
  const envId = episode.row.env_id ?? byId('env').value ?? state.defaultEnv
  try {
    const metadata = await api(`/envs/${envId}/metadata`)
    state.unfinished = metadata.unfinished_episode_reward
    const first = await api(`/envs/${envId}/sessions`, { method: 'POST', body: resetArguments(episode.row) })
    const frames = [{ label: 'reset', reply: first, recorded: null }]
    for (const [index, step] of episode.steps.entries()) {
      const reply = await api(`/envs/${envId}/sessions/${first.session_id}/step`, {
        method: 'POST',
        body: { tool: step.call.name, arguments: step.call.arguments ?? {} },
      })
      frames.push({ label: `${index + 1}. ${step.call.name}`, reply, recorded: step, call: step.call })
    }
    await api(`/envs/${envId}/sessions/${first.session_id}`, { method: 'DELETE' }).catch(() => undefined)
    state.frames = frames
    byId('replay').hidden = false
    byId('replay-title').textContent =
      `${episode.policy} · ${episode.row.family ?? ''} seed ${episode.row.seed} · recorded reward ${formatNumber(episode.reward)}`
    show(0)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

function matches(frame) {
  return frame.recorded === null || Math.abs(frame.recorded.reward - frame.reply.reward) < 1e-9
}

function show(index) {
  state.index = Math.max(0, Math.min(index, state.frames.length - 1))
  const frame = state.frames[state.index]
  clear(
    byId('timeline'),
    state.frames.map((item, position) =>
      el(
        'button',
        {
          type: 'button',
          class: [position === state.index ? 'current' : '', matches(item) ? '' : 'bad'].join(' ').trim() || undefined,
          'data-testid': `frame-${position}`,
          onclick: () => show(position),
        },
        item.label,
      ),
    ),
  )
  const check =
    frame.recorded === null
      ? ''
      : matches(frame)
        ? ' · matches the recorded reward ✓'
        : ` · recorded ${formatNumber(frame.recorded.reward)} ✗`
  byId('step').textContent =
    `${frame.call ? `${frame.call.name}(${JSON.stringify(frame.call.arguments ?? {})}) · ` : ''}${rewardLine(frame.reply)}${check}`
  const steps = state.frames.slice(1, state.index + 1)
  byId('reward-explained').textContent = rewardExplanation({
    reply: frame.reply,
    stepRewards: steps.map((item) => item.reply.reward),
    unfinished: state.unfinished,
  })
  renderEvidence(
    byId('evidence-history'),
    steps.map((item, position) => ({ step: position + 1, call: item.call, reply: item.reply })),
  )
  renderObservation(byId('observation'), frame.reply.observation, null, { evidence: false })
  drawTimeline()
}

/** The episode's reward over its steps: the total after each (line), each step's own (bars); this step marked. */
function drawTimeline() {
  const labels = state.frames.map((_frame, position) => (position === 0 ? 'reset' : String(position)))
  const totals = state.frames.map((frame) => frame.reply.cumulative_reward ?? null)
  const stepRewards = state.frames.map((frame, position) => (position === 0 ? null : frame.reply.reward))
  const radius = state.frames.map((_frame, position) => (position === state.index ? 7 : 3))
  if (!state.chart) {
    state.chart = new globalThis.Chart(byId('reward-timeline'), {
      data: {
        labels,
        datasets: [
          { type: 'line', label: 'total after the step', data: totals, borderColor: '#2563eb', backgroundColor: '#2563eb' },
          { type: 'bar', label: 'step reward', data: stepRewards, backgroundColor: '#93c5fd' },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        onClick: (_event, elements) => {
          if (elements[0]) show(elements[0].index)
        },
        plugins: { title: { display: true, text: 'reward timeline (click a step)' } },
        scales: { x: { title: { display: true, text: 'step' } } },
      },
    })
  }
  const chart = state.chart
  chart.data.labels = labels
  chart.data.datasets[0].data = totals
  chart.data.datasets[0].pointRadius = radius
  chart.data.datasets[1].data = stepRewards
  chart.update('none')
}

renderHeader('replay.html')
byId('load').addEventListener('click', () =>
  loadFromOutputs().catch((error) => notice(byId('message'), 'error', describeError(error))),
)
byId('upload').addEventListener('change', async (event) => {
  const file = event.target.files?.[0]
  if (!file) return
  try {
    showEpisodes(parseEpisodes(await file.text()), file.name)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
})
byId('page-previous').addEventListener('click', () => {
  state.page -= 1
  renderPage()
})
byId('page-next').addEventListener('click', () => {
  state.page += 1
  renderPage()
})
for (const id of Object.keys(filters)) {
  byId(id).addEventListener('change', () => {
    state.page = 0
    renderPage()
  })
}
byId('previous').addEventListener('click', () => show(state.index - 1))
byId('next').addEventListener('click', () => show(state.index + 1))
function loadAll() {
  notice(byId('message'), 'info', '')
  loadFiles().catch((error) => notice(byId('message'), 'error', describeError(error)))
}
// The outputs listing needs the token when the server has one: list again once it is entered.
byId('token').addEventListener('change', loadAll)
loadAll()
