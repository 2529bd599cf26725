/** Temporary demo data for release tests: the generator's files in a fresh directory per call. */

import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { demoDatasetName } from '../../src/envs/grading/demo/demo-taxonomy.js'
import { demoLayout, runDemoData } from '../../src/release/demo/write-demo-data.js'

export interface DemoFixture {
  root: string
  demo: string
  dataset: string
  path(key: keyof typeof demoLayout): string
}

export function temporaryDirectory(label: string): string {
  return mkdtempSync(join(tmpdir(), `releaseops-${label}-`))
}

export async function demoFixture(options: { rows?: number; seed?: number } = {}): Promise<DemoFixture> {
  const root = temporaryDirectory('release')
  const demo = join(root, 'demo')
  await runDemoData({ out: demo, rows: options.rows ?? 300, ...(options.seed !== undefined ? { seed: options.seed } : {}) })
  return { root, demo, dataset: demoDatasetName, path: (key) => join(demo, demoLayout[key]) }
}

/** The demo's input and task files, as `runReleaseLine` takes them (all but `out`). */
export function releaseLineFiles(fixture: DemoFixture) {
  return {
    input: fixture.path('xlsx'),
    mapping: fixture.path('mapping'),
    dataset: fixture.dataset,
    configFile: fixture.path('datasets'),
    registry: fixture.path('registry'),
    corpus: fixture.path('corpus'),
    taskConfig: fixture.path('task'),
    gradingConfig: fixture.path('grading'),
    classificationStandard: fixture.path('classification'),
    gradingStandard: fixture.path('grading'),
  }
}

/** Relative path → sha256 of every file under `root`. */
export function treeHashes(root: string): Record<string, string> {
  const hashes: Record<string, string> = {}
  const walk = (directory: string) => {
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name)
      if (statSync(path).isDirectory()) walk(path)
      else hashes[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }
  if (existsSync(root)) walk(root)
  return hashes
}

/** What an async call threw (fails the test when it did not throw). */
export async function thrown(
  run: () => Promise<unknown>,
): Promise<{ code: string; path?: string; message: string; issues: { code: string; path: string; message: string }[] }> {
  try {
    await run()
  } catch (error) {
    const value = error as {
      code: string
      path?: string
      message: string
      issues?: { code: string; path: string; message: string }[]
    }
    return {
      code: value.code,
      ...(value.path === undefined ? {} : { path: value.path }),
      message: value.message,
      issues: value.issues ?? [],
    }
  }
  throw new Error('expected the call to throw')
}
