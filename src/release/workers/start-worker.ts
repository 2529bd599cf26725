/**
 * @module release/workers: starts a worker thread on a module beside this one. Built code runs the `.js`
 * entry; under tsx (tests, benches, `npm run` from source) the worker registers tsx first and imports the
 * `.ts` entry. Worker errors and non-zero exits reject the returned promise.
 */
import { Worker } from 'node:worker_threads'

export function startWorker(options: { entry: string; workerData: unknown }): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${options.entry}.js`, here), { workerData: options.workerData })
  const entry = new URL(`./${options.entry}.ts`, here).href
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true, workerData: options.workerData })
}

/** Resolves when the worker exits cleanly; rejects on an uncaught error or a non-zero exit code. */
export function workerDone(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with code ${code}`))))
  })
}
