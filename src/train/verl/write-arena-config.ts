/**
 * @module train/verl: `releaseops verl config --kind rloo --env releaseops-v3`: a VeRL run directory for
 * multi-turn RL of the Arena. Each rollout is one session on a releaseops env server (OpenEnv `/ws`), played
 * by `releaseops_verl/arena_agent_loop.py` (VeRL's ToolAgentLoop with the calls sent to the session; score =
 * the episode's `info.cumulative_reward`). The directory holds the dataset rows as VeRL prompts
 * (`arena/{train,val}.parquet`: the row's prompt with the first observation appended, as `releaseops eval`
 * builds it, and the reset parameters), the tool schemas, the agent-loop YAML, a copy of the Python package
 * and `verl_config.json` (settings, Hydra overrides, entry point, sha256 of every file).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { envTools, initialMessages } from '../../agent/episode-prompt.js'
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { envRegistry, makeEnv } from '../../envs/index.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory } from '../../io/publish-directory.js'
import { writeParquetRows } from '../../release/parquet/parquet-rows.js'
import { fieldsOf, shapes } from '../../release/parquet/parquet-shape.js'
import { modelFamilyFacts, type VerlModelFamily } from './model-family.js'
import { commonRlooOverrides, verlEntryPoint, verlRunFiles } from './verl-overrides.js'
import type { VerlRunSettings, VerlRunSettingsInput } from './verl-run-settings.js'
import { hashRunFiles, parseVerlSettings, resolveModelFamily, verlPythonPackageDirectory } from './write-verl-config.js'

export const arenaConfigFormat = 'releaseops-verl-arena-config-v1'
export const arenaEnvId = 'releaseops-v3'
const arenaAgentLoopName = 'releaseops_arena'
const arenaSplits = { train: 'train', val: 'eval' } as const
export const arenaFiles = { rows: 'arena', tools: 'arena_tools.json' } as const

/** An Arena episode is long: up to 16 calls, each observation a few hundred tokens. */
const arenaDefaults: Partial<VerlRunSettingsInput> = {
  max_prompt_length: 4096,
  max_response_length: 8192,
  max_tool_calls: 16,
  max_tool_response_length: 16_384,
  project_name: 'releaseops-arena',
}

export interface ArenaVerlConfig {
  format: typeof arenaConfigFormat
  kind: 'rloo'
  env_id: typeof arenaEnvId
  /** The env server's OpenEnv WebSocket URL each rollout opens a session on. */
  env_url: string
  settings: VerlRunSettings
  model_family: VerlModelFamily
  model_family_source: 'template' | 'setting'
  tool_parser: string
  agent_loop: typeof arenaAgentLoopName
  tools: string[]
  rows: Record<keyof typeof arenaSplits, { split: string; rows: number }>
  entry_point: string[]
  overrides: string[]
  environment: Record<string, string>
  files: Record<string, string>
}

const arenaRowColumns = fieldsOf({
  data_source: shapes.string,
  agent_name: shapes.string,
  prompt: shapes.list(shapes.strings(['role', 'content'])),
  reward_model: shapes.strings(['style', 'ground_truth']),
  extra_info: shapes.struct({
    env_id: shapes.string,
    split: shapes.string,
    index: shapes.int64,
    row_id: shapes.string,
    reset: shapes.string,
  }),
})

/** The VeRL rows of one Arena split: the first observation rendered by the env itself, as an eval sees it. */
function arenaRows(split: string): Record<string, unknown>[] {
  const dataset = envRegistry.get(arenaEnvId).dataset
  if (!dataset) throw new InternalInvariantError(`${arenaEnvId} has no dataset`)
  const env = makeEnv(arenaEnvId)
  return dataset.rows(split).map((row, index) => {
    const reset = dataset.toResetParams(row)
    const resetText = env.render(env.reset(reset).observation)
    const prompt = initialMessages({ spec: env.spec, prompt: row.prompt, resetText }).map((message) => ({
      role: message.role,
      content: String(message.content ?? ''),
    }))
    return {
      data_source: arenaEnvId,
      agent_name: arenaAgentLoopName,
      prompt,
      reward_model: { style: 'env', ground_truth: '' },
      extra_info: { env_id: arenaEnvId, split, index, row_id: `${split}-${index}`, reset: JSON.stringify(reset) },
    }
  })
}

function arenaAgentLoopYaml(run: string, envUrl: string): string {
  return [
    `- name: ${arenaAgentLoopName}`,
    '  _target_: releaseops_verl.arena_agent_loop.ArenaAgentLoop',
    `  env_url: ${JSON.stringify(envUrl)}`,
    `  tool_schemas_path: ${JSON.stringify(join(run, arenaFiles.tools))}`,
    '',
  ].join('\n')
}

export function arenaOverrides(settings: VerlRunSettings, run: string, toolParser: string): string[] {
  const rows = (name: string) => join(run, arenaFiles.rows, `${name}.parquet`)
  return commonRlooOverrides(settings, { run, train: rows('train'), val: rows('val') }, toolParser, arenaAgentLoopName)
}

export function arenaEnvironment(run: string): Record<string, string> {
  return { PYTHONPATH: run }
}

function checkEnvUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    parsed = new URL('invalid:')
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
    throw new InvalidInputError({
      code: 'invalid_env_url',
      path: '--env-url',
      message: `The env server URL must be ws:// or wss:// (its OpenEnv /ws endpoint), not ${url}.`,
      issues: [],
    })
  return url
}

export async function runArenaVerlConfig(options: {
  settings: VerlRunSettingsInput
  outputDir: string
  envUrl?: string
}): Promise<ArenaVerlConfig> {
  const settings = parseVerlSettings({ ...arenaDefaults, ...options.settings })
  if (settings.kind !== 'rloo')
    throw new InvalidInputError({
      code: 'invalid_verl_settings',
      path: 'kind',
      message: `The Arena trains with RLOO on its env (--kind rloo), not ${settings.kind}.`,
      issues: [],
    })
  const envUrl = checkEnvUrl(options.envUrl ?? `ws://127.0.0.1:8000/envs/${arenaEnvId}/ws`)
  const target = resolve(options.outputDir)
  if (isNonEmptyDirectory(target)) throw outputExistsError(target)
  const { family, source } = resolveModelFamily(settings)
  const toolParser = modelFamilyFacts[family].tool_parser
  const tools = envTools(makeEnv(arenaEnvId).spec)
  let config: ArenaVerlConfig | undefined
  await publishDirectory({
    target,
    build(staging) {
      mkdirSync(join(staging, arenaFiles.rows))
      const counts = {} as ArenaVerlConfig['rows']
      for (const [name, split] of Object.entries(arenaSplits) as [keyof typeof arenaSplits, string][]) {
        const rows = arenaRows(split)
        writeParquetRows({ path: join(staging, arenaFiles.rows, `${name}.parquet`), columns: arenaRowColumns, rows })
        counts[name] = { split, rows: rows.length }
      }
      writeFileSync(join(staging, arenaFiles.tools), `${JSON.stringify(tools, null, 2)}\n`)
      writeFileSync(join(staging, verlRunFiles.agentLoop), arenaAgentLoopYaml(target, envUrl))
      const packageDirectory = verlPythonPackageDirectory()
      cpSync(packageDirectory, join(staging, verlRunFiles.package), {
        recursive: true,
        filter: (path) => !/(^|[\\/])(tests|__pycache__)([\\/]|$)|\.pyc$/.test(relative(packageDirectory, path)),
      })
      config = {
        format: arenaConfigFormat,
        kind: 'rloo',
        env_id: arenaEnvId,
        env_url: envUrl,
        settings,
        model_family: family,
        model_family_source: source,
        tool_parser: toolParser,
        agent_loop: arenaAgentLoopName,
        tools: tools.map((tool) => tool.function.name),
        rows: counts,
        entry_point: verlEntryPoint(settings),
        overrides: arenaOverrides(settings, target, toolParser),
        environment: arenaEnvironment(target),
        files: hashRunFiles(staging),
      }
      writeFileSync(join(staging, verlRunFiles.config), `${JSON.stringify(config, null, 2)}\n`)
    },
  })
  return config as ArenaVerlConfig
}
