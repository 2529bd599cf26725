/** @module cli: `releaseops mcp`: an env's tools for MCP agents over stdio (one episode per process). */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { defaultEnvId, envRegistry } from '../../envs/index.js'
import { serveMcpStdio } from '../../server/mcp/mcp-stdio.js'
import { parseResetKwargs } from '../../server/session/session-operations.js'
import { parseInteger, parseJsonObject } from '../parse-options.js'

export function registerMcpCommand(program: CommandUnknownOpts): void {
  program
    .command('mcp')
    .description('Serve one episode of an env to an MCP client over stdio (tools = the env tools; results = what the env shows).')
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--seed <n>', 'episode seed', parseInteger)
    .option('--options <json>', 'reset options (or dataset-row fields) as a JSON object', parseJsonObject)
    .action(async (flags) => {
      envRegistry.get(flags.env)
      const reset = parseResetKwargs({
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        ...(flags.options ? { options: flags.options } : {}),
      })
      const { closed } = await serveMcpStdio({
        registry: envRegistry,
        envId: flags.env,
        reset,
        log: (line) => process.stderr.write(line),
      })
      await closed
    })
}
