/** The runbook's variables for the hospital fixture (test/fixtures/hospital), with `run` as `$RUN`. */
import { join, resolve } from 'node:path'

export const hospitalFixture = resolve(import.meta.dirname, '../fixtures/hospital')
export const hospitalDataset = 'hospital_demo'

export function hospitalRunbookVariables(run: string) {
  const fixture = hospitalFixture
  const dataset = hospitalDataset
  return {
    DATASET: dataset,
    RUN: run,
    RAW: join(fixture, 'raw'),
    ASSETS: join(fixture, 'assets'),
    STANDARDS: join(fixture, 'standards'),
    CFG: join(fixture, 'config'),
    CANONICAL: join(run, 'canonical', dataset, 'all.json'),
    REGISTRY: join(fixture, 'assets/registries', `${dataset}.registry.json`),
    CORPUS: join(fixture, 'assets/corpora', `${dataset}.corpus.json`),
    TASK_CONFIG: join(fixture, 'config', `${dataset}.task.json`),
    GRADING_CONFIG: join(fixture, 'standards', `${dataset}.grading.json`),
    THINK_COLLECT: join(run, 'trajectory/think-collect'),
    TRAJECTORY_RELEASE: join(run, 'releases/sft-trajectory', dataset),
  }
}
