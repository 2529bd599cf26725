/**
 * Headless Chromium for the dashboard tests: Debian's `chromium` driven by playwright-core (no browser
 * download), and screenshot checks (a real PNG of the page's size, with enough distinct colours that it
 * is not blank).
 */
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { createCanvas, loadImage } from '@napi-rs/canvas'
import { type Browser, chromium, type Page } from 'playwright-core'

export const chromiumPath = process.env.RELEASEOPS_CHROMIUM ?? '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}: apt-get install --no-install-recommends chromium (CI does), or set RELEASEOPS_CHROMIUM.`,
    )
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

/** Opens a dashboard page with the operator token entered in its header, as a person would. */
export async function openPage(browser: Browser, url: string, token: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  ;(page as Page & { errors: string[] }).errors = errors
  await page.goto(url)
  await page.fill('#token', token)
  await page.dispatchEvent('#token', 'change')
  return page
}

/**
 * `openPage`, then waits for `ready` and forgets the errors logged so far: requests the page made before
 * the token was entered (401s) are not errors of the test.
 */
export async function openReadyPage(options: {
  browser: Browser
  url: string
  token: string
  ready: string
  state?: 'attached' | 'visible'
}): Promise<Page> {
  const page = await openPage(options.browser, options.url, options.token)
  await page.waitForSelector(options.ready, { state: options.state ?? 'visible' })
  pageErrors(page).length = 0
  return page
}

export function pageErrors(page: Page): string[] {
  return (page as Page & { errors?: string[] }).errors ?? []
}

export interface ScreenshotFacts {
  path: string
  width: number
  height: number
  colors: number
}

/** Takes a full-page screenshot, keeps it under test-screenshots/, and measures it. */
export async function screenshot(page: Page, name: string): Promise<ScreenshotFacts> {
  const png = await page.screenshot({ fullPage: true })
  const folder = resolve(import.meta.dirname, '..', '..', 'outputs', 'test-screenshots')
  await mkdir(folder, { recursive: true })
  const path = join(folder, `${name}.png`)
  await writeFile(path, png)
  return { path, ...(await imageFacts(png, 13)) }
}

/** A PNG's size and its distinct colours, sampled every `stride` pixels (a blank image has one or two). */
export async function imageFacts(png: Buffer, stride: number): Promise<{ width: number; height: number; colors: number }> {
  const image = await loadImage(png)
  const canvas = createCanvas(image.width, image.height)
  const context = canvas.getContext('2d')
  context.drawImage(image, 0, 0)
  const pixels = context.getImageData(0, 0, image.width, image.height).data
  const colors = new Set<number>()
  for (let index = 0; index < pixels.length; index += 4 * stride)
    colors.add((pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]!)
  return { width: image.width, height: image.height, colors: colors.size }
}

/** Distinct colours in a canvas element as rendered (a chart that drew nothing has one or two). */
export async function canvasColors(page: Page, selector: string): Promise<number> {
  return (await imageFacts(await page.locator(selector).screenshot(), 7)).colors
}

/**
 * What a page shows badly, measured in it: a table, button or list line whose content is wider than
 * its box, that passes the viewport or that a scrolling ancestor clips; a page wider than the viewport;
 * and a table cell or a `.one-word` value holding one unbreakable word (an id, a state, a number) that is
 * drawn on more than one line (`approve_tr iage`, `5 0`).
 */
export async function layoutFaults(page: Page): Promise<string[]> {
  // A string (the tests' TypeScript has no DOM types); runs in the page.
  return page.evaluate(`(() => {
    const viewport = document.documentElement.clientWidth
    const faults = []
    if (document.documentElement.scrollWidth > viewport + 1) faults.push('page: ' + document.documentElement.scrollWidth + ' > ' + viewport)
    const name = (element) => element.tagName.toLowerCase() + '[' + (element.dataset.testid ?? element.textContent.trim().slice(0, 24)) + ']'
    for (const element of document.querySelectorAll('table, button, ol li')) {
      if (element.offsetParent === null) continue // not displayed (a closed <details>, a hidden section)
      const box = element.getBoundingClientRect()
      if (element.scrollWidth > element.clientWidth + 1) faults.push(name(element) + ': ' + element.scrollWidth + ' > ' + element.clientWidth)
      else if (box.right > viewport + 1) faults.push(name(element) + ': right edge ' + box.right + ' > ' + viewport)
      else {
        // Clipped by a scrolling ancestor (the Replay list once hid its buttons this way).
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX === 'visible') continue
          const outer = parent.getBoundingClientRect()
          if (box.right > outer.right + 1) faults.push(name(element) + ': clipped by ' + parent.tagName.toLowerCase() + ' at ' + outer.right)
          break
        }
      }
    }
    // Chinese, Japanese and Korean text breaks between any two characters: no word to keep whole.
    const breaksAnywhere = /[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff]/
    for (const cell of document.querySelectorAll('td, .one-word')) {
      const text = cell.textContent.trim()
      if (cell.offsetParent === null || text === '' || /\\s/.test(text) || breaksAnywhere.test(text)) continue
      // Where the text itself is drawn (a button's box around it is not a line of text).
      const tops = []
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.push(rect.top)
      }
      tops.sort((a, b) => a - b)
      // Rects whose tops differ by less than half a line are on one line.
      const lines = tops.filter((top, index) => index === 0 || top - tops[index - 1] > 6).length
      if (lines > 1) faults.push(cell.tagName.toLowerCase() + '[' + text.slice(0, 40) + ']: one word on ' + lines + ' lines')
    }
    return faults
  })()`)
}
