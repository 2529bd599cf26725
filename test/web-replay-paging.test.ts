/**
 * Replay past 500 episodes, and release-check colours, in headless Chromium. A 4-policy eval file (600
 * episodes, grouped by policy as an eval writes them) is paged through; the last policy's episodes are
 * reachable (before: only the first 500 rows, so only `naive`), one of them replays on the server with
 * every reward matching, and the replay panel starts inside the first screen (under the list at 1280 px,
 * beside it at 1920 px). Checks
 * that name a success (`payment_tests_passing`, `deploy_checks_passed`) are green when true. Play offers
 * only unresolved proposal ids.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { pageErrors } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { type EpisodeLine, writeEvalEpisodes } from './train-support/eval-episodes-file.js'
import type { OperationsServer } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page
let lines: EpisodeLine[]
const policies = ['naive', 'rule', 'phase-aware-rule', 'oracle']

useDashboardSession({
  path: '/ui/replay.html',
  ready: '#file option[value="evals/four/episodes.jsonl"]',
  state: 'attached',
  prepare: async (server) => {
    ;({ lines } = await writeEvalEpisodes({
      server,
      name: 'four',
      rows: 150,
      policies,
      order: (a, b) => policies.indexOf(String(a.policy)) - policies.indexOf(String(b.policy)),
    }))
  },
  opened: (session) => ({ server, page } = session),
})

describe('replay paging', () => {
  it('pages through 600 episodes; the last policy is reachable and replays in the first screen', async () => {
    expect(lines.length).toBe(600)
    await page.selectOption('#file', 'evals/four/episodes.jsonl')
    await page.click('[data-testid=load]')
    await page.waitForSelector('[data-testid=episode-table] tbody tr')
    expect(await page.textContent('[data-testid=page-info]')).toBe('1–100 of 600 · page 1/6')
    for (let index = 0; index < 5; index++) await page.click('[data-testid=page-next]')
    expect(await page.textContent('[data-testid=page-info]')).toBe('501–600 of 600 · page 6/6')
    expect(await page.isDisabled('[data-testid=page-next]')).toBe(true)
    const lastPolicies = await page.locator('[data-testid=episode-table] tbody tr td:nth-child(2)').allTextContents()
    expect(new Set(lastPolicies)).toEqual(new Set(['oracle']))

    await page.selectOption('[data-testid=policy-filter]', 'rule')
    expect(await page.textContent('[data-testid=page-info]')).toBe('1–100 of 150 · page 1/2')
    await page.click('[data-testid=page-next]')
    await page.selectOption('[data-testid=policy-filter]', 'oracle')
    await page.click('[data-testid=page-next]')
    await page.click('[data-testid=replay-600]')
    await page.waitForSelector('[data-testid=frame-0].current')
    const steps = (lines[599]!.steps as unknown[]).length
    expect(await page.locator('[data-testid=timeline] button').count()).toBe(steps + 1)
    for (let index = 0; index < steps; index++) await page.click('[data-testid=next]')
    expect(await page.locator('[data-testid=timeline] button.bad').count()).toBe(0)
    expect(await page.textContent('[data-testid=step]')).toContain('matches the recorded reward ✓')
    // At 1280 px the list (scrolling on its own) sits above the episode, so both tables show whole ids;
    // the episode starts inside the first screen (it was ~19,000 px down). From 1800 px they sit side by side.
    const boxes = async () => {
      const panel = await page.locator('[data-testid=replay]').boundingBox()
      const list = await page.locator('[data-testid=episodes]').boundingBox()
      if (!panel || !list) throw new Error('no replay panel or list')
      return { panel, list }
    }
    const narrow = await boxes()
    expect(narrow.panel.y).toBeGreaterThan(narrow.list.y + narrow.list.height - 1)
    expect(narrow.panel.y).toBeLessThan(900)
    await page.setViewportSize({ width: 1920, height: 900 })
    const wide = await boxes()
    expect(wide.panel.x).toBeGreaterThan(wide.list.x + wide.list.width - 1)
    expect(wide.panel.y).toBeLessThan(900)
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(pageErrors(page)).toEqual([])
  })

  it('colours release checks by meaning: a passing check is green, an open bug red', async () => {
    // A string, so vitest does not rewrite the browser's dynamic import.
    const colours = (await page.evaluate(`(async () => {
      const { renderObservation } = await import('/ui/observation-view.js')
      const node = document.createElement('div')
      document.body.append(node)
      renderObservation(node, {
        view: {
          phase: 'triage',
          release_checks: { open_p1_bug: true, payment_tests_disabled: false, payment_tests_passing: true, deploy_checks_passed: false },
        },
      })
      const result = {}
      for (const row of node.querySelectorAll('[data-testid=checks] tbody tr')) {
        const [name, value] = row.querySelectorAll('td')
        result[name.textContent] = getComputedStyle(value.querySelector('span')).color
      }
      node.remove()
      return result
    })()`)) as Record<string, string>
    const good = 'rgb(4, 120, 87)' // --good
    const bad = 'rgb(185, 28, 28)' // --bad
    expect(colours).toEqual({
      open_p1_bug: bad,
      payment_tests_disabled: good,
      payment_tests_passing: good,
      deploy_checks_passed: bad,
    })
  })

  it('Play offers only unresolved proposals (a resolved id is never the form’s default)', async () => {
    const offered = await page.evaluate(`(async () => {
      const { idSuggestions } = await import('/ui/observation-view.js')
      const ids = idSuggestions({ view: { proposals: [
        { id: 'p1', worker: 'w1', status: 'approved', refs: ['pr_1'] },
        { id: 'p2', worker: 'w2', status: 'unresolved', refs: ['ci_run_2'] },
        { id: 'p3', worker: 'w3', status: 'blocked', refs: [] },
      ] } })
      return { proposal: [...ids.proposal], worker: [...ids.worker], ref: [...ids.ref] }
    })()`)
    expect(offered).toEqual({ proposal: ['p2'], worker: ['w1', 'w2', 'w3'], ref: ['pr_1', 'ci_run_2'] })
  })
})
