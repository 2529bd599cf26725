/**
 * Which vitest project each test file runs in (decision 0057). `unit` is the edit-test loop: the tests
 * beside the code that run in-process. The others need more than Node: `python` runs Python, `browser`
 * drives Chromium, `integration` is the rest (the CLI, servers, child processes and worker threads). `npm test` runs all four; `test/test-projects.test.ts`
 * checks that the lists name files that exist and that no file calling Python or Chromium is left out.
 */

/**
 * Tests that run Python: the venvs `npm run setup` makes (pyarrow, tokenizers, TRL, nbclient; or as the
 * stand-in VeRL host of `fakeMachine`), or python3 for CPython's or our Python package's own answer.
 */
export const pythonTests = [
  'src/core/python/python-round.test.ts',
  'test/answer-contract-parity.test.ts',
  'test/arena-score-parity.test.ts',
  'test/gpu-pilot.test.ts',
  'test/notebook-walkthrough.test.ts',
  'test/readme-figures.test.ts',
  'test/release-kind-conformance.test.ts',
  'test/release-parquet-readers.test.ts',
  'test/release-reader-openpyxl.test.ts',
  'test/release-rl-trajectory-mixture.test.ts',
  'test/release-trajectories-readers.test.ts',
  'test/release-xlsx-fidelity.test.ts',
  'test/release-xlsx-zip.test.ts',
  'test/releaseops-v3-trl-reward.test.ts',
  'test/server-python.test.ts',
  'test/train-python.test.ts',
  'test/verl-arena.test.ts',
  'test/verl-config.test.ts',
  'test/verl-gate-step.test.ts',
  'test/verl-portable-run.test.ts',
  'test/verl-preflight.test.ts',
  'test/verl-python-parity.test.ts',
  'test/verl-sft-dataset-python.test.ts',
]

/** Tests that drive headless Chromium (a few also run the RL Python behind the page). */
export const browserTests = [
  'test/web-eval-model.test.ts',
  'test/web-eval.test.ts',
  'test/web-layout.test.ts',
  'test/web-newcomer.test.ts',
  'test/web-play.test.ts',
  'test/web-replay-paging.test.ts',
  'test/web-replay.test.ts',
  'test/web-train-smoke.test.ts',
  'test/web-train.test.ts',
]

/** Tests beside the code that start worker threads or child processes: integration, not unit. */
export const outOfProcessUnitTests = [
  'src/io/output-lock.test.ts',
  'src/release/workers/background-file-writer.test.ts',
  'src/release/workers/write-record-array-in-worker.test.ts',
]

export const unitInclude = ['src/**/*.test.ts']
export const integrationInclude = ['test/**/*.test.ts', ...outOfProcessUnitTests]
