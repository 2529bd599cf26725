export { isJsonValue, type JsonObject, type JsonPrimitive, type JsonValue } from './json-value.js'
