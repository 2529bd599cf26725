/**
 * `npm run bench`: runs every `bench/*.bench.ts` in its own process (after `npm run build`); each writes
 * `bench/results/<name>.json`. Pass names to run a subset: `npm run bench -- env-throughput`.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'

const wanted = process.argv.slice(2)
const benches = readdirSync('bench')
  .filter((name) => name.endsWith('.bench.ts'))
  .map((name) => name.replace(/\.bench\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort()
let failed = 0
for (const name of benches) {
  process.stderr.write(`\n== bench ${name}\n`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.bench.ts`], { stdio: 'inherit' })
  if (result.status !== 0) {
    failed++
    process.stderr.write(`bench ${name} failed with exit code ${result.status}\n`)
  }
}
process.exitCode = failed === 0 ? 0 : 1
