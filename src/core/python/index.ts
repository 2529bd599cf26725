/** @module core/python: Python's semantics where JavaScript differs, ported exactly so outputs match the original byte for byte. */
export {
  PythonFloat,
  type PythonJsonOptions,
  pythonDumps,
  pythonDumpsCompact,
  pythonDumpsIndent2,
  pythonDumpsUnicode,
  pythonFloatRepr,
  pythonJsonDumps,
  pythonJsonString,
} from './python-json.js'
export { PythonRandom } from './python-random.js'
export { pythonRound } from './python-round.js'
