/** @module core/testing/conformance: the env's contract before any play: a well-formed spec, and no step before a reset. */
import type { Observation } from '../../env/env-api.js'
import { toolParametersSchema } from '../../tools/define-tool.js'
import { check, thrownCode } from './conformance-checks.js'
import type { ConformanceCase, ConformanceContext } from './conformance-context.js'

export function contractCases<O extends Observation>({ spec, createEnv }: ConformanceContext<O>): ConformanceCase[] {
  return [
    {
      name: 'spec is well formed',
      async run() {
        check(/^[a-z][a-z0-9_-]*-v\d+$/.test(spec.id), 'spec', `id "${spec.id}" is not name-vN`)
        check(Number.isInteger(spec.maxEpisodeSteps) && spec.maxEpisodeSteps > 0, 'spec', 'maxEpisodeSteps must be positive')
        const names = spec.tools.map((tool) => tool.name)
        check(new Set(names).size === names.length, 'spec', 'tool names must be unique')
        for (const tool of spec.tools) {
          const schema = toolParametersSchema(tool)
          check(schema.type === 'object', 'spec', `tool ${tool.name} must take an object`)
          check(tool.description.length > 0, 'spec', `tool ${tool.name} needs a description`)
        }
      },
    },
    {
      name: 'step before reset throws reset_needed',
      async run() {
        const env = createEnv()
        const code = await thrownCode(() => env.step({ name: spec.tools[0]?.name ?? 'x', arguments: {} }))
        check(code === 'reset_needed', 'order', `expected a reset_needed error, got ${String(code)}`)
      },
    },
  ]
}
