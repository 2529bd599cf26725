/**
 * The eval page in headless Chromium, its two missing options: the oracle (a privileged policy, the
 * ceiling the baselines are read against) is offered and checked by default; and a model endpoint named
 * in the form is what the job evaluates (the scripted model behind a real OpenAI-compatible server,
 * playing phase-aware-rule).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { EvalJobStatus } from '../src/eval/eval-job.js'
import { pageErrors } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { type OperationsServer, waitFor } from './train-support/operations-server.js'
import { phaseAwareEndpoint } from './train-support/phase-aware-endpoint.js'

let server: OperationsServer
let page: Page

useDashboardSession({
  path: '/ui/eval.html',
  ready: '[data-testid=policies] input[name=policy][value=oracle]',
  opened: (session) => ({ server, page } = session),
})

async function finished(): Promise<EvalJobStatus> {
  let status: EvalJobStatus | undefined
  await waitFor(async () => {
    status = (await (await server.call('/api/eval')).json()) as EvalJobStatus
    return status.state !== 'running' && status.state !== 'idle'
  }, 60_000)
  return status as EvalJobStatus
}

describe('eval page: ceiling and model endpoint', () => {
  it('offers the oracle as the ceiling, checked, and runs it with the baselines', async () => {
    expect(await page.isChecked('[data-testid=policies] input[value=oracle]')).toBe(true)
    expect(await page.textContent('[data-testid=policies]')).toContain('oracle (ceiling)')
    for (const input of await page.locator('[data-testid=policies] input[name=policy]').all()) {
      if (!['oracle', 'naive'].includes((await input.getAttribute('value')) ?? '')) await input.uncheck()
    }
    await page.fill('#rows', '3')
    await page.click('[data-testid=run]')
    const job = await finished()
    expect(job.state).toBe('succeeded')
    expect(Object.keys(job.summary ?? {}).sort()).toEqual(['naive', 'oracle'])
  })

  it('evaluates the model behind the endpoint named in the form', async () => {
    const { endpoint } = await phaseAwareEndpoint(3)
    try {
      await page.fill('[data-testid=model-name]', endpoint.modelName)
      await page.fill('[data-testid=model-url]', endpoint.url)
      await page.fill('#rows', '3')
      await page.click('[data-testid=run]')
      const job = await finished()
      expect(job.state, JSON.stringify(job.error)).toBe('succeeded')
      expect(job.agents).toEqual([endpoint.modelName])
      expect(Object.keys(job.summary ?? {})).toEqual([endpoint.modelName])
      expect(pageErrors(page)).toEqual([])
    } finally {
      await endpoint.close()
    }
  })
})
