#!/usr/bin/env node
// Runs the compiled CLI. `npm ci` builds dist/ through the `prepare` script.
try {
  await import('../dist/cli/run.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/run.js')) {
    process.stderr.write('releaseops: dist/ is missing; run `npm run build` (npm ci does it for you).\n')
    process.exit(1)
  }
  throw error
}
