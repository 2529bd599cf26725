import { createCanvas, loadImage } from '@napi-rs/canvas'
import { describe, expect, it } from 'vitest'
import { renderTrainingPlot } from './render-training-plot.js'

/** Pixels close to `rgb` in the PNG. */
async function countColour(png: Buffer, rgb: [number, number, number]): Promise<number> {
  const image = await loadImage(png)
  const canvas = createCanvas(image.width, image.height)
  const context = canvas.getContext('2d')
  context.drawImage(image, 0, 0)
  const { data } = context.getImageData(0, 0, image.width, image.height)
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const close = [0, 1, 2].every((channel) => Math.abs((data[index + channel] as number) - rgb[channel as 0 | 1 | 2]) < 12)
    if (close) count++
  }
  return count
}

describe('renderTrainingPlot', () => {
  it('draws the env server’s rejected-call rate beside TRL’s failure frequency', async () => {
    const rows = [1, 2, 3, 4].map((step) => ({
      step,
      reward: -0.25,
      loss: 0.1,
      'tools/call_frequency': 1,
      'tools/failure_frequency': 0,
      'env/rejected_call_rate': 0.5,
    }))
    const rejectedColour: [number, number, number] = [0xe1, 0x1d, 0x48]
    const withRate = await countColour(renderTrainingPlot({ rows, title: 't' }), rejectedColour)
    const withoutRate = await countColour(
      renderTrainingPlot({ rows: rows.map(({ 'env/rejected_call_rate': _rate, ...rest }) => rest), title: 't' }),
      rejectedColour,
    )
    expect(withRate).toBeGreaterThan(withoutRate + 100) // the line, not just its legend swatch
  })
})
