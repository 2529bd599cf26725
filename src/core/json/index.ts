export { isJsonValue, type JsonObject, type JsonPrimitive, type JsonValue } from './json-value.js'
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
