/**
 * @module core/testing: the env conformance suite every env (and the network client) must pass.
 * Framework-free: it returns named cases that throw on failure, so vitest, node:test or a CLI can run them.
 * The cases come in groups, one module each under `conformance/`, listed here in the order they run.
 */
import type { Observation } from '../env/env-api.js'
import { badCallCases } from './conformance/bad-call-cases.js'
import {
  type ConformanceCase,
  type ConformanceContext,
  type ConformanceOptions,
  conformanceContext,
} from './conformance/conformance-context.js'
import { contractCases } from './conformance/contract-cases.js'
import { determinismCases } from './conformance/determinism-cases.js'
import { episodeEndCases } from './conformance/episode-end-cases.js'
import { fuzzCases } from './conformance/fuzz-cases.js'

export { ConformanceError } from './conformance/conformance-checks.js'
export type { ConformanceCase, ConformanceOptions } from './conformance/conformance-context.js'

type CaseGroup = <O extends Observation>(context: ConformanceContext<O>) => ConformanceCase[]

/** The groups in the order their cases run: the contract, determinism, bad calls, fuzz, episode ends. */
const caseGroups: readonly CaseGroup[] = [contractCases, determinismCases, badCallCases, fuzzCases, episodeEndCases]

export function envConformanceCases<O extends Observation>(options: ConformanceOptions<O>): ConformanceCase[] {
  const context = conformanceContext(options)
  return caseGroups
    .flatMap((group) => group(context))
    .map((testCase) => {
      const skipReason = options.skip?.[testCase.name]
      return skipReason === undefined ? testCase : { ...testCase, skipReason }
    })
}
