/** @module cli: `releaseops env list|render|check|audit`. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { defaultEnvId } from '../../envs/default-env-id.js'
import { parseInteger, parseJsonObject, parsePositiveInteger } from '../parse-options.js'

export function registerEnvCommand(program: CommandUnknownOpts): void {
  const env = program.command('env').description('Inspect registered environments.')

  env
    .command('list')
    .description('List environments with their tools and policies.')
    .action(async () => (await import('./env-list.js')).runEnvList())

  env
    .command('render')
    .description('Print the reset observation exactly as the env renders it for prompts, and nothing else.')
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--seed <n>', 'episode seed', parseInteger)
    .option('--family <name>', 'scenario family')
    .option('--difficulty <level>', 'difficulty')
    .option('--archetype-mix <mix>', 'archetype mix')
    .option('--options <json>', 'any other reset options, as a JSON object', parseJsonObject)
    .action(async (options) => {
      const { makeEnv } = await import('../../envs/index.js')
      const instance = makeEnv(options.env)
      const resetOptions: Record<string, unknown> = { ...options.options }
      if (options.family !== undefined) resetOptions.family = options.family
      if (options.difficulty !== undefined) resetOptions.difficulty = options.difficulty
      if (options.archetypeMix !== undefined) resetOptions.archetype_mix = options.archetypeMix
      const result = instance.reset({
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        options: resetOptions,
      })
      process.stdout.write(instance.render(result.observation))
    })

  env
    .command('check')
    .description('Run the env conformance suite (determinism, bad calls as data, fuzzing, truncation).')
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--fuzz-calls <n>', 'random calls in the fuzz case', parsePositiveInteger, 10_000)
    .option('--seeds <n>', 'how many seeds to exercise', parsePositiveInteger, 5)
    .action(async (options) => {
      const { envRegistry, makeEnv } = await import('../../envs/index.js')
      const registration = envRegistry.get(options.env)
      const rows = registration.dataset?.rows(registration.dataset.splits[0] ?? '').slice(0, options.seeds) ?? []
      const resets =
        rows.length > 0 ? rows.map((row) => registration.dataset!.toResetParams(row)) : [{ seed: registration.spec.defaultSeed }]
      const { envConformanceCases } = await import('../../core/testing/env-conformance.js')
      let failed = 0
      for (const testCase of envConformanceCases({
        createEnv: () => makeEnv(options.env),
        resets,
        fuzzCalls: options.fuzzCalls,
      })) {
        try {
          await testCase.run()
          process.stdout.write(`ok    ${testCase.name}\n`)
        } catch (error) {
          failed++
          process.stdout.write(`FAIL  ${testCase.name}: ${(error as Error).message}\n`)
        }
      }
      if (failed > 0) process.exitCode = 1
    })

  env
    .command('audit')
    .description(
      "Run the env's exploit audit: degenerate, evidence-free and searched strategies against its baseline ladder, and a memoriser on every slice (exit 1 if any reaches the evidence-using baseline, or a held-out slice stops catching the memoriser).",
    )
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--split <name>', "dataset split to play (default: the audit's own)")
    .option('--rows <n>', 'play only the first n rows of the split', parsePositiveInteger)
    .option('--screen <n>', 'rows each searched candidate is screened on', parsePositiveInteger, 100)
    .option('--finalists <n>', 'searched candidates replayed on every row', parsePositiveInteger, 5)
    .option('--fit-rows <n>', "training rows the memoriser is fitted on (default: the audit's own)", parsePositiveInteger)
    .option('--out <file>', 'write the report JSON here')
    .action(async (options) => (await import('./env-audit-action.js')).runEnvAudit(options))
}
