/**
 * @module train: `/train/plot.png`, rendered on the server with Chart.js on `@napi-rs/canvas` (no
 * browser, no CDN): three panels — mean reward with its ±std band, loss (and grad norm), and the
 * tool-call and tool-failure frequencies — under a title line with the run's state and progress.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas'
import { Chart, type ChartConfiguration, type ChartItem, registerables } from 'chart.js'
import type { LogRow } from './log-history.js'

Chart.register(...registerables)

export interface TrainingPlotOptions {
  rows: readonly LogRow[]
  title: string
  width?: number
  panelHeight?: number
}

interface Series {
  label: string
  key: string
  color: string
  dashed?: boolean
}

const panels: { title: string; series: Series[] }[] = [
  {
    title: 'reward (mean over rollouts, env reward)',
    series: [
      { label: 'reward', key: 'reward', color: '#2563eb' },
      { label: 'reward + std', key: 'reward+std', color: '#93c5fd', dashed: true },
      { label: 'reward - std', key: 'reward-std', color: '#93c5fd', dashed: true },
    ],
  },
  {
    title: 'loss and grad norm',
    series: [
      { label: 'loss', key: 'loss', color: '#dc2626' },
      { label: 'grad_norm', key: 'grad_norm', color: '#f59e0b', dashed: true },
    ],
  },
  {
    title: 'tool calls per rollout; failure and server-rejected shares',
    series: [
      { label: 'tools/call_frequency', key: 'tools/call_frequency', color: '#059669' },
      { label: 'tools/failure_frequency (raised in Python)', key: 'tools/failure_frequency', color: '#7c3aed' },
      // The env server's own verdict (train_grpo.py's EnvRejectionCallback): TRL counts a call the env
      // rejects as a success, so its failure frequency reads 0 while the server rejects every call.
      { label: 'rejected by the env server', key: 'env/rejected_call_rate', color: '#e11d48' },
    ],
  },
]

function value(row: LogRow, key: string): number | null {
  const read = (name: string) => {
    const entry = row[name]
    return typeof entry === 'number' && Number.isFinite(entry) ? entry : null
  }
  if (key === 'reward+std' || key === 'reward-std') {
    const mean = read('reward')
    const spread = read('reward_std')
    if (mean === null || spread === null) return null
    return key === 'reward+std' ? mean + spread : mean - spread
  }
  return read(key)
}

function renderPanel(options: {
  rows: readonly LogRow[]
  title: string
  series: Series[]
  width: number
  height: number
  draw: (panel: Canvas) => void
}): void {
  const canvas = createCanvas(options.width, options.height)
  const rows = options.rows.filter((row) => typeof row.step === 'number' && !('train_runtime' in row))
  const config: ChartConfiguration<'line', (number | null)[], number> = {
    type: 'line',
    data: {
      labels: rows.map((row) => row.step as number),
      datasets: options.series.map((series) => ({
        label: series.label,
        data: rows.map((row) => value(row, series.key)),
        borderColor: series.color,
        backgroundColor: series.color,
        borderDash: series.dashed ? [6, 4] : [],
        borderWidth: series.dashed ? 1 : 2,
        pointRadius: rows.length > 60 ? 0 : 2,
        spanGaps: true,
      })),
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      plugins: { title: { display: true, text: options.title }, legend: { position: 'bottom' } },
      scales: { x: { title: { display: true, text: 'step' } } },
    },
  }
  // Chart.js draws on any 2D context; napi-rs's matches the DOM one closely enough.
  const chart = new Chart(canvas.getContext('2d') as unknown as ChartItem, config)
  // Copy the panel out before destroy(), which clears its canvas.
  options.draw(canvas)
  chart.destroy()
}

/** A PNG of the three panels; an empty history still renders (with the title saying so). */
export function renderTrainingPlot(options: TrainingPlotOptions): Buffer {
  const width = options.width ?? 900
  const panelHeight = options.panelHeight ?? 260
  const header = 36
  const canvas = createCanvas(width, header + panelHeight * panels.length)
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.fillStyle = '#111827'
  context.font = 'bold 13px sans-serif'
  context.fillText(options.title, 12, 24)
  panels.forEach((panel, index) => {
    renderPanel({
      rows: options.rows,
      title: panel.title,
      series: panel.series,
      width,
      height: panelHeight,
      draw: (image) => context.drawImage(image, 0, header + index * panelHeight),
    })
  })
  return canvas.toBuffer('image/png')
}
