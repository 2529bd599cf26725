/** Every test file runs in the vitest project its needs call for (test/support/test-projects.ts). */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/run-cli.js'
import { browserTests, outOfProcessUnitTests, pythonTests } from './support/test-projects.js'

function testFiles(folder: string): string[] {
  return readdirSync(join(repositoryRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts') && !name.includes('node_modules'))
    .map((name) => relative(repositoryRoot, join(repositoryRoot, folder, name)))
    .sort()
}

// This file names the markers, so it is not scanned for them.
const files = [...testFiles('src'), ...testFiles('test')].filter((file) => file !== 'test/test-projects.test.ts')
const source = (file: string) => readFileSync(join(repositoryRoot, file), 'utf8')
const runsPython = /[tT]estPython\(|fakeMachine\(|\.venv-rl|\.venv\/bin\/python|(spawn|spawnSync|execFile|execFileSync)\('python3'/
const drivesChromium = /launchBrowser\(|train-support\/dashboard-session\.js/
const leavesTheProcess = /from 'node:(child_process|worker_threads)'|InWorkers?\(|new BackgroundFileWriter\(/

describe('vitest projects', () => {
  it('name test files that exist, each in one list', () => {
    const listed = [...pythonTests, ...browserTests, ...outOfProcessUnitTests]
    expect(listed.filter((file) => !existsSync(join(repositoryRoot, file)))).toEqual([])
    expect(new Set(listed).size).toBe(listed.length)
    expect(outOfProcessUnitTests.every((file) => file.startsWith('src/'))).toBe(true)
  })

  it('put every file that runs Python in python, every file that drives Chromium in browser', () => {
    // A dashboard test may run the RL Python behind the page: it belongs with the browser tests.
    const placed = (file: string) =>
      pythonTests.includes(file) || (browserTests.includes(file) && drivesChromium.test(source(file)))
    expect(files.filter((file) => runsPython.test(source(file)) && !placed(file))).toEqual([])
    expect(files.filter((file) => drivesChromium.test(source(file)) && !browserTests.includes(file))).toEqual([])
    expect(pythonTests.filter((file) => !runsPython.test(source(file)))).toEqual([])
    expect(browserTests.filter((file) => !drivesChromium.test(source(file)))).toEqual([])
  })

  it('keep the unit project in-process: no child process or worker thread beside the code', () => {
    const unit = files.filter(
      (file) => file.startsWith('src/') && !pythonTests.includes(file) && !outOfProcessUnitTests.includes(file),
    )
    expect(unit.length).toBeGreaterThan(50)
    expect(unit.filter((file) => leavesTheProcess.test(source(file)))).toEqual([])
  })
})
