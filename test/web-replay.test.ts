/**
 * The replay page in headless Chromium: an episodes file written by `releaseops eval --episodes-out`
 * (here: the same records, written under the outputs root) is listed, an episode is replayed on the
 * server and stepped through on the timeline, every step's reward matching the recorded one; a local
 * file can be opened too.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { pageErrors, screenshot } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { type EpisodeLine, writeEvalEpisodes } from './train-support/eval-episodes-file.js'
import type { OperationsServer } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page
let lines: EpisodeLine[]
let text: string

useDashboardSession({
  path: '/ui/replay.html',
  // Entering the token lists the outputs again; the 401s of the list made before it are expected.
  ready: '#file option[value="evals/baseline/episodes.jsonl"]',
  state: 'attached',
  prepare: async (server) => {
    ;({ lines, text } = await writeEvalEpisodes({ server, name: 'baseline', rows: 4, policies: ['phase-aware-rule'] }))
  },
  opened: (session) => ({ server, page } = session),
})

describe('replay page', () => {
  it('lists the episodes of a file under the outputs root', async () => {
    await page.waitForSelector('#file option[value="evals/baseline/episodes.jsonl"]', { state: 'attached' })
    await page.selectOption('#file', 'evals/baseline/episodes.jsonl')
    await page.click('[data-testid=load]')
    await page.waitForSelector('[data-testid=episode-table] tbody tr')
    expect(await page.locator('[data-testid=episode-table] tbody tr').count()).toBe(4)
    const first = await page.locator('[data-testid=episode-table] tbody tr').first().locator('td').allTextContents()
    expect(first.slice(0, 8)).toEqual([
      '1',
      'phase-aware-rule',
      String(lines[0]?.family),
      String(lines[0]?.split),
      String(lines[0]?.seed),
      (lines[0]!.reward as number).toFixed(3),
      String(lines[0]?.terminal_reason),
      String((lines[0]!.steps as unknown[]).length),
    ])
  })

  it('replays an episode on the server and steps through its timeline; rewards match the recording', async () => {
    const steps = lines[0]?.steps as { call: { name: string }; reward: number }[]
    await page.click('[data-testid=replay-1]')
    await page.waitForSelector('[data-testid=frame-0]')
    expect(await page.locator('[data-testid=timeline] button').count()).toBe(steps.length + 1)
    expect(await page.locator('[data-testid=timeline] button.bad').count()).toBe(0)
    expect(await page.textContent('[data-testid=step]')).toBe('step reward 0 · total 0')
    let total = 0
    for (const [index, step] of steps.entries()) {
      await page.click('[data-testid=next]')
      await page.waitForSelector(`[data-testid=frame-${index + 1}].current`)
      total += step.reward
      const shown = (await page.textContent('[data-testid=step]')) as string
      expect(shown).toContain(`${step.call.name}(`)
      expect(shown).toContain(`step reward ${Number.isInteger(step.reward) ? step.reward : step.reward.toFixed(3)}`)
      expect(shown).toContain('matches the recorded reward ✓')
    }
    expect(await page.textContent('[data-testid=step]')).toContain(`total ${(lines[0]!.reward as number).toFixed(3)}`)
    expect(total).toBeCloseTo(lines[0]!.reward as number, 9)
    expect(await page.textContent('[data-testid=step]')).toContain(`episode over: ${lines[0]?.terminal_reason}`)
    await page.click('[data-testid=frame-1]')
    expect(await page.textContent('[data-testid=step]')).toContain(steps[0]?.call.name as string)
    const shot = await screenshot(page, 'replay')
    expect(shot.width).toBe(1280)
    expect(shot.colors).toBeGreaterThan(20)
  })

  it('opens a local episodes file', async () => {
    await page.setInputFiles('[data-testid=upload]', {
      name: 'local.episodes.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    })
    await page.waitForSelector('text=4 episodes from local.episodes.jsonl')
    await page.click('[data-testid=replay-2]')
    await page.waitForSelector('[data-testid=frame-0].current')
    expect(await page.locator('[data-testid=timeline] button').count()).toBe((lines[1]!.steps as unknown[]).length + 1)
    expect(pageErrors(page)).toEqual([])
  })
})
