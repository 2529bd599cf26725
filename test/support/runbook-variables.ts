/** The runbook's variables for a dataset whose inputs lie in one folder in the runbook's layout, with `run` as `$RUN`. */
import { join } from 'node:path'

export function runbookVariables(options: { dataset: string; inputs: string; run: string }) {
  const { dataset, inputs, run } = options
  return {
    DATASET: dataset,
    RUN: run,
    RAW: join(inputs, 'raw'),
    ASSETS: join(inputs, 'assets'),
    STANDARDS: join(inputs, 'standards'),
    CFG: join(inputs, 'config'),
    CANONICAL: join(run, 'canonical', dataset, 'all.json'),
    REGISTRY: join(inputs, 'assets/registries', `${dataset}.registry.json`),
    CORPUS: join(inputs, 'assets/corpora', `${dataset}.corpus.json`),
    TASK_CONFIG: join(inputs, 'config', `${dataset}.task.json`),
    GRADING_CONFIG: join(inputs, 'standards', `${dataset}.grading.json`),
    THINK_COLLECT: join(run, 'trajectory/think-collect'),
    TRAJECTORY_RELEASE: join(run, 'releases/sft-trajectory', dataset),
  }
}
