/**
 * @module cli: `releaseops train smoke`, a thin adapter over `train/smoke/run-train-smoke.ts`: its
 * options, and the env servers it starts (`train` sits below `server`, so the CLI injects them; the
 * server modules load only when the smoke runs).
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { runTrainSmoke, smokeEnvId } from '../../train/smoke/run-train-smoke.js'
import { installInterruptHandlers, onInterrupt } from '../../train/smoke/smoke-interrupt.js'
import type { SmokeServerStarter } from '../../train/smoke/smoke-steps.js'
import { parsePositiveInteger } from '../parse-options.js'

export function registerTrainSmokeCommand(train: CommandUnknownOpts): void {
  train
    .command('smoke')
    .description('End to end: tiny Qwen3, warm-up, GRPO against this server over HTTP, checked from the server’s counters.')
    .option('--python <path>', 'Python with trl, transformers and torch (default .venv-rl/bin/python)')
    .option('--work <dir>', 'working folder; its outputs/ is the server’s outputs root', 'outputs/smoke')
    .option('--env <id>', 'env to train on', smokeEnvId)
    .option(
      '--steps <n>',
      'GRPO optimisation steps of 16 completions (at least 2; 4 by default: fewer are not robust to the seed, decision 0061)',
      parsePositiveInteger,
      4,
    )
    .option('--warmup-steps <n>', 'supervised warm-up steps', parsePositiveInteger, 200)
    .option('--warmup-rows <n>', 'scripted episodes recorded for the warm-up', parsePositiveInteger, 96)
    .option(
      '--learning-rate <x>',
      'GRPO learning rate (at 1e-3 the tiny model learned to stop calling on most seeds; decision 0061)',
      Number,
      5e-4,
    )
    .option(
      '--temperature <x>',
      'sampling temperature of GRPO and the probe (0.7: Qwen3’s advice for non-thinking mode)',
      Number,
      0.7,
    )
    .option('--no-stop-check', 'skip stopping a second run mid-way')
    .option('--report <file>', 'also write the checks and timings as JSON')
    .action(async (options) => {
      const uninstall = installInterruptHandlers()
      try {
        await runTrainSmoke({ ...options, startServer: await smokeServerStarter() })
      } finally {
        uninstall()
      }
    })
}

async function smokeServerStarter(): Promise<SmokeServerStarter> {
  const [{ envRegistry, defaultEnvId }, { parseServerOptions }, { startServer }] = await Promise.all([
    import('../../envs/index.js'),
    import('../../server/server-options.js'),
    import('../../server/start-server.js'),
  ])
  return async ({ envId, token, training }) => {
    const server = await startServer({
      options: parseServerOptions({
        host: '127.0.0.1',
        port: 0,
        logLevel: 'warn',
        defaultEnvId: envId,
        ...(token ? { token } : {}),
      }),
      registry: envRegistry,
      // The trainer's server keeps the registry's default; the probe's own serves its env at the root.
      registryDefaultEnvId: training ? defaultEnvId : envId,
      ...(training ? { training } : {}),
    })
    // An interruption closes it too: closing stops a running trainer's process group.
    const forget = onInterrupt(() => server.close())
    return {
      url: server.url,
      close: () => {
        forget()
        return server.close()
      },
    }
  }
}
