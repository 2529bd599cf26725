export { CallSampler, harvestStrings } from './call-sampler.js'
export { type ConformanceCase, ConformanceError, type ConformanceOptions, envConformanceCases } from './env-conformance.js'
