/** @module core/testing/conformance: malformed calls are data: a coded error, the penalty, and the episode goes on. */
import type { EnvSpec, Observation, ToolCall } from '../../env/env-api.js'
import { toolParametersSchema } from '../../tools/define-tool.js'
import { check, checkStepShape, safeStep, serialize } from './conformance-checks.js'
import type { ConformanceCase, ConformanceContext } from './conformance-context.js'

/** Calls every env must refuse as data: unknown names, arguments that are not an object, and (by its schema) missing or extra fields. */
export function badCalls(tool: EnvSpec['tools'][number]): ToolCall[] {
  const schema = toolParametersSchema(tool) as { required?: string[]; additionalProperties?: unknown }
  const bad: ToolCall[] = [
    { name: 'no_such_tool', arguments: {} },
    { name: '', arguments: {} },
    { name: '__proto__', arguments: {} },
    { name: tool.name, arguments: 'not json' },
    { name: tool.name, arguments: '{"a":' },
    { name: tool.name, arguments: null },
    { name: tool.name, arguments: [1, 2] },
    { name: tool.name, arguments: 17 },
  ]
  if (schema.required && schema.required.length > 0) bad.push({ name: tool.name, arguments: {} })
  if (schema.additionalProperties === false) bad.push({ name: tool.name, arguments: { surely_not_a_field: 1 } })
  return bad
}

export function badCallCases<O extends Observation>({ spec, createEnv, resets }: ConformanceContext<O>): ConformanceCase[] {
  return [
    {
      name: 'bad calls are data: coded error, penalty, episode goes on',
      async run() {
        const env = createEnv()
        const tool = spec.tools[0]
        check(tool, 'bad-calls', 'env has no tools')
        const bad = badCalls(tool)
        for (const reset of resets) {
          for (const call of bad) {
            await env.reset(reset)
            const result = await safeStep(env, call, 'bad-calls')
            check(result.observation.error, 'bad-calls', `call ${serialize(call)} returned no error`)
            checkStepShape('bad-calls', result, spec, call)
            check(!result.terminated, 'bad-calls', `a bad call ended the episode: ${serialize(call)}`)
          }
        }
      },
    },
  ]
}
