// Loader hook for test/cli-lazy-commands.test.ts: prints every module URL the process loads to stderr,
// one per line after a `module:` prefix, so a test can see what a command imports.
export async function load(url, context, next) {
  process.stderr.write(`module: ${url}\n`)
  return next(url, context)
}
