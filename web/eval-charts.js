/**
 * Per-family eval charts with their 95% intervals drawn as error bars. A rate's interval is the
 * summary's Wilson interval (`ci95`). The average reward's is computed here from the run's episodes
 * when they are at hand (the summary carries none): the Wilson interval of the mean rescaled to the
 * range of the rewards taken, as `releaseops env audit` reports it; without episodes the chart says so.
 */
import { el } from './common.js'

const palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563']
const z95 = 1.959963984540054

/** Wilson 95% bounds of a mean of bounded rewards (the audit's `wilsonMeanInterval`, same formula). */
export function wilsonMeanInterval(mean, count, [low, high]) {
  if (count <= 0 || high <= low) return [mean, mean]
  const p = Math.min(1, Math.max(0, (mean - low) / (high - low)))
  const z2 = z95 * z95
  const denominator = 1 + z2 / count
  const center = (p + z2 / (2 * count)) / denominator
  const half = (z95 * Math.sqrt((p * (1 - p)) / count + z2 / (4 * count * count))) / denominator
  const scale = (value) => low + Math.min(1, Math.max(0, value)) * (high - low)
  return [scale(center - half), scale(center + half)]
}

/** `{policy: {family: [low, high]}}` of the average reward, from an episodes file's lines. */
export function rewardIntervals(episodes) {
  const rewards = new Map()
  for (const episode of episodes) {
    const family = episode.family ?? episode.row?.family
    if (typeof episode.reward !== 'number' || family === undefined) continue
    const key = `${episode.policy}\u0000${family}`
    rewards.set(key, [...(rewards.get(key) ?? []), episode.reward])
  }
  const intervals = {}
  for (const [key, values] of rewards) {
    const [policy, family] = key.split('\u0000')
    const mean = values.reduce((total, value) => total + value, 0) / values.length
    intervals[policy] ??= {}
    intervals[policy][family] = wilsonMeanInterval(mean, values.length, [Math.min(...values), Math.max(...values)])
  }
  return intervals
}

/** Draws each bar's interval (`dataset.intervals[index]`: [low, high] or null) as a whisker with caps. */
const errorBars = {
  id: 'errorBars',
  afterDatasetsDraw(chart) {
    const { ctx } = chart
    const y = chart.scales.y
    chart.data.datasets.forEach((dataset, datasetIndex) => {
      const meta = chart.getDatasetMeta(datasetIndex)
      if (meta.hidden || !dataset.intervals) return
      meta.data.forEach((bar, index) => {
        const interval = dataset.intervals[index]
        if (!interval) return
        const top = y.getPixelForValue(interval[1])
        const bottom = y.getPixelForValue(interval[0])
        const cap = Math.max(2, Math.min(6, bar.width * 0.3))
        ctx.save()
        ctx.strokeStyle = '#111827'
        ctx.lineWidth = 1.2
        ctx.beginPath()
        ctx.moveTo(bar.x, top)
        ctx.lineTo(bar.x, bottom)
        ctx.moveTo(bar.x - cap, top)
        ctx.lineTo(bar.x + cap, top)
        ctx.moveTo(bar.x - cap, bottom)
        ctx.lineTo(bar.x + cap, bottom)
        ctx.stroke()
        ctx.restore()
      })
    })
  },
}

/**
 * The metrics charted: the average reward, then the rates that carry intervals and are not zero
 * everywhere (a rate no episode reached draws nothing).
 */
export function chartKeys(summary) {
  const blocks = Object.values(summary)
  const first = blocks[0]?.overall ?? {}
  const rates = Object.keys(first.ci95 ?? {}).filter((key) =>
    blocks.some((block) => Object.values(block.by_family ?? {}).some((family) => (family[key] ?? 0) > 0)),
  )
  return ['avg_reward', ...rates.filter((key) => key !== 'avg_reward')]
}

/**
 * One chart: families on x, one bar per policy with its interval. `intervals` ({policy: {family:
 * [low, high]}}) stand in where the summary has no `ci95` for the key.
 */
export function familyChart({ summary, key, families, intervals, charts }) {
  const policies = Object.keys(summary)
  const intervalOf = (policy, family) => summary[policy].by_family?.[family]?.ci95?.[key] ?? intervals?.[policy]?.[family] ?? null
  const known = policies.some((policy) => families.some((family) => intervalOf(policy, family) !== null))
  const canvas = el('canvas', { 'data-testid': `chart-${key}`, 'data-intervals': known ? 'yes' : 'no' })
  const title = known
    ? `${key} by family, 95% intervals`
    : `${key} by family (no 95% interval: no episodes file beside the summary)`
  // The whiskers must fit the axis, which Chart.js fits to the bars alone.
  const bounds = policies.flatMap((policy) => families.flatMap((family) => intervalOf(policy, family) ?? []))
  const y = bounds.length ? { suggestedMin: Math.min(0, ...bounds), suggestedMax: Math.max(...bounds) } : {}
  const instance = new globalThis.Chart(canvas, {
    type: 'bar',
    data: {
      labels: families,
      datasets: policies.map((policy, index) => ({
        label: policy,
        backgroundColor: palette[index % palette.length],
        data: families.map((family) => summary[policy].by_family?.[family]?.[key] ?? null),
        intervals: families.map((family) => intervalOf(policy, family)),
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { title: { display: true, text: title } },
      scales: { x: { ticks: { autoSkip: false, maxRotation: 30, minRotation: 0 } }, y },
    },
    plugins: [errorBars],
  })
  charts.push(instance)
  return el('div', { class: 'chart family-chart' }, canvas)
}
