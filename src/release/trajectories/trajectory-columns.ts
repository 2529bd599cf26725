/**
 * @module release/trajectories: the Parquet columns of a trajectory release: the row schema's
 * JSON Schema turned into nested shapes, with the three open parts filled in from the task: the tool-call
 * `arguments` struct (the ordered union of every tool's parameters), the `tools` column (the shape of the
 * tools' JSON) and the `metadata` struct (the task's prompt fields).
 */
import { z } from 'zod'
import type { ChatTool } from '../../chat/chat-message.js'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { mergeShapes, type ParquetField, type ParquetShape, shapeFromJsonSchema, shapeOfValue } from '../parquet/parquet-shape.js'
import { trajectoryRowSchema } from './trajectory-row.js'
import { argumentSchemaTools } from './trajectory-tools.js'

/** The ordered union of every tool's parameters, typed by their JSON Schemas. */
function toolArgumentsShape(tools: readonly ChatTool[]): ParquetShape {
  return tools
    .map((tool) => shapeFromJsonSchema(tool.function.parameters ?? { type: 'object' }, { path: `tools.${tool.function.name}` }))
    .reduce((merged, shape) => mergeShapes(merged, shape, 'arguments'))
}

export function trajectoryColumns(options: { tools: readonly ChatTool[]; metadataFields: readonly string[] }): ParquetField[] {
  // Rows carry VeRL's view of the tools; the arguments are typed by the env's full schemas of those tools.
  const argumentsShape = toolArgumentsShape(argumentSchemaTools(options.tools, gradingV1Spec))
  const overrides = new Map<string, ParquetShape>([
    ['$.messages[].tool_calls[].function.arguments', argumentsShape],
    ['$.tool_calls[].arguments', argumentsShape],
    ['$.tools', shapeOfValue(options.tools, '$.tools')],
    ['$.metadata', { kind: 'struct', fields: options.metadataFields.map((name) => ({ name, shape: { kind: 'string' } })) }],
  ])
  const shape = shapeFromJsonSchema(z.toJSONSchema(trajectoryRowSchema, { io: 'output' }) as never, { overrides })
  if (shape.kind !== 'struct') throw new InternalInvariantError('the row schema is not an object')
  return [...shape.fields]
}
