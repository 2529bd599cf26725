/**
 * @module cli: the top-level commands, declared cheaply. `load` imports a command's module only when it
 * runs; `description` and `term` (its line in the top-level help) must match what the module registers,
 * which `command-entries.test.ts` checks for every entry.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'

export interface CommandEntry {
  name: string
  description: string
  /** The command's term in the top-level help: its name, with ` [options]` when it takes options itself. */
  term: string
  load: () => Promise<(program: CommandUnknownOpts) => void>
}

export const commandEntries: readonly CommandEntry[] = [
  {
    name: 'eval',
    description:
      'Run policies, or a model (--model/--base-url, or --gguf), over a dataset split or JSONL file; print a summary table.',
    term: 'eval [options]',
    load: async () => (await import('./commands/eval-command.js')).registerEvalCommand,
  },
  {
    name: 'dataset',
    description: "Write an env's dataset splits as JSONL files.",
    term: 'dataset [options]',
    load: async () => (await import('./commands/dataset-command.js')).registerDatasetCommand,
  },
  {
    name: 'env',
    description: 'Inspect registered environments.',
    term: 'env',
    load: async () => (await import('./commands/env-command.js')).registerEnvCommand,
  },
  {
    name: 'serve',
    description: 'Serve every registered env over OpenEnv HTTP/WebSocket, a session API and MCP (default env also at /).',
    term: 'serve [options]',
    load: async () => (await import('./commands/serve-command.js')).registerServeCommand,
  },
  {
    name: 'mcp',
    description: 'Serve one episode of an env to an MCP client over stdio (tools = the env tools; results = what the env shows).',
    term: 'mcp [options]',
    load: async () => (await import('./commands/mcp-command.js')).registerMcpCommand,
  },
  {
    name: 'chat',
    description: 'Render prompts with the official chat templates, parse model text, count tokens.',
    term: 'chat',
    load: async () => (await import('./commands/chat-command.js')).registerChatCommand,
  },
  {
    name: 'mock-llm',
    description: 'Serve a scripted model (a policy speaking a chat format) as an OpenAI-compatible endpoint on loopback.',
    term: 'mock-llm [options]',
    load: async () => (await import('./commands/mock-llm-command.js')).registerMockLlmCommand,
  },
  {
    name: 'release',
    description: 'Data-grading release line: xlsx → processed → canonical → splits → audit → SFT release.',
    term: 'release',
    load: async () => (await import('./commands/release-command.js')).registerReleaseCommand,
  },
  {
    name: 'gate',
    description: 'Gates over model rollouts (before RL is allowed to start).',
    term: 'gate',
    load: async () => (await import('./commands/gate-command.js')).registerGateCommand,
  },
  {
    name: 'train',
    description: 'Training helpers: warm-up trajectories, the end-to-end training smoke, completion budgets.',
    term: 'train',
    load: async () => (await import('./commands/train-command.js')).registerTrainCommand,
  },
  {
    name: 'verl',
    description: 'VeRL launch path: run configs and the preflight that gates a launch.',
    term: 'verl',
    load: async () => (await import('./commands/verl-command.js')).registerVerlCommand,
  },
]
