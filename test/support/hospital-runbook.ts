/** The runbook's variables for the hospital fixture (test/fixtures/hospital), with `run` as `$RUN`. */
import { resolve } from 'node:path'
import { runbookVariables } from './runbook-variables.js'

export const hospitalFixture = resolve(import.meta.dirname, '../fixtures/hospital')
export const hospitalDataset = 'hospital_demo'

export function hospitalRunbookVariables(run: string) {
  return runbookVariables({ dataset: hospitalDataset, inputs: hospitalFixture, run })
}
