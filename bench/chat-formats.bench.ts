/**
 * Chat-format throughput, written to bench/results/chat-formats.json.
 *
 * Corpus: the native trajectories of the three baselines on the 50 releaseops-v1 eval rows (system +
 * user prompt with the ~3.9 KB observation, the 7 tools, 3–17 further messages each).
 * - render: each whole conversation through the official template (messages/s, conversations/s), and the
 *   per-turn generation prompts the text wire modes send (prompts/s);
 * - the same template run by a plain @huggingface/jinja `Template` (no Python-semantics shim, arguments
 *   as objects), for the cost of our preparation;
 * - parse: every assistant turn as the format writes it (messages/s);
 * - tokens: the Qwen3 tokenizer on the rendered prompts (tokens/s).
 * Each case runs in its own process (median of timed runs after a warm-up; peak RSS per case).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { Template } from '@huggingface/jinja'
import { policyAgent } from '../dist/agent/policy-agent.js'
import { runEpisode } from '../dist/agent/run-episode.js'
import { qwen3TokenCounter } from '../dist/agent/token-counter.js'
import type { AssistantMessage, ChatMessage, ChatTool } from '../dist/chat/chat-message.js'
import { chatFormat } from '../dist/chat/format-registry.js'
import { envRegistry, makeEnv, policyRegistry } from '../dist/envs/index.js'

const envId = 'releaseops-v1'
const formats = ['qwen3', 'qwen3.5', 'qwen3.5-nothink', 'json-tool-calls'] as const
const seconds = Number(process.env.BENCH_SECONDS ?? 1.5)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

async function corpus(): Promise<{ messages: ChatMessage[]; tools: ChatTool[] }[]> {
  const dataset = envRegistry.get(envId).dataset!
  const conversations: { messages: ChatMessage[]; tools: ChatTool[] }[] = []
  const env = makeEnv(envId)
  for (const policy of ['naive', 'rule', 'phase-aware-rule']) {
    for (const row of dataset.rows('eval')) {
      const result = await runEpisode({
        env,
        agent: policyAgent(policyRegistry.create(envId, policy)),
        reset: dataset.toResetParams(row),
        prompt: row.prompt,
      })
      conversations.push({ messages: result.trajectory.messages, tools: result.trajectory.tools })
    }
  }
  return conversations
}

/** Runs `work` (which returns the units it did) repeatedly for `seconds`; median units/s over `runs`. */
function rate(work: () => number): number {
  const deadline = performance.now() + 300
  while (performance.now() < deadline) work()
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    let units = 0
    const started = performance.now()
    while (performance.now() - started < seconds * 1000) units += work()
    samples.push(units / ((performance.now() - started) / 1000))
  }
  return Math.round(median(samples))
}

async function runCase(name: string, formatId: string) {
  const conversations = await corpus()
  const messageCount = conversations.reduce((total, item) => total + item.messages.length, 0)
  if (name === 'render') {
    const format = chatFormat(formatId)
    const whole = rate(() => {
      for (const item of conversations) format.render({ messages: item.messages, tools: item.tools })
      return messageCount
    })
    const prefixes = conversations.flatMap((item) =>
      item.messages.flatMap((message, index) =>
        message.role === 'assistant' ? [{ messages: item.messages.slice(0, index), tools: item.tools }] : [],
      ),
    )
    const prompts = rate(() => {
      for (const item of prefixes) format.render({ messages: item.messages, tools: item.tools, addGenerationPrompt: true })
      return prefixes.length
    })
    return {
      case: `render ${formatId}`,
      messages_per_s: whole,
      conversations_per_s: Math.round((whole / messageCount) * conversations.length),
      generation_prompts_per_s: prompts,
    }
  }
  if (name === 'plain-engine') {
    const file = formatId === 'qwen3' ? 'qwen3.jinja' : 'qwen3_5_think.jinja'
    const template = new Template(readFileSync(`src/chat/__fixtures__/templates/${file}`, 'utf8'))
    const whole = rate(() => {
      for (const item of conversations)
        template.render({ messages: item.messages, tools: item.tools, add_generation_prompt: false })
      return messageCount
    })
    return { case: `plain @huggingface/jinja ${formatId}`, messages_per_s: whole }
  }
  if (name === 'parse') {
    const format = chatFormat(formatId)
    const tools = conversations[0]!.tools
    const texts = conversations.flatMap((item) =>
      item.messages
        .filter((message): message is AssistantMessage => message.role === 'assistant')
        .map((message) => format.formatAssistant(message, { tools })),
    )
    const parsed = rate(() => {
      for (const text of texts) format.parse(text, { tools })
      return texts.length
    })
    return {
      case: `parse ${formatId}`,
      messages_per_s: parsed,
      mean_chars: Math.round(texts.reduce((total, text) => total + text.length, 0) / texts.length),
    }
  }
  const counter = await qwen3TokenCounter()
  const prompts = conversations
    .slice(0, 60)
    .map((item) => chatFormat('qwen3').render({ messages: item.messages, tools: item.tools }))
  const tokensPerPrompt = prompts.map((prompt) => counter.count(prompt))
  const total = tokensPerPrompt.reduce((sum, count) => sum + count, 0)
  const tokensPerSecond = rate(() => {
    for (const prompt of prompts) counter.count(prompt)
    return total
  })
  return {
    case: 'qwen3 tokenizer',
    tokens_per_s: tokensPerSecond,
    prompts_per_s: Math.round((tokensPerSecond / total) * prompts.length),
    mean_tokens_per_conversation: Math.round(total / prompts.length),
  }
}

const [mode, caseName, caseArgument] = process.argv.slice(2)
if (mode === '--case') {
  const result = await runCase(caseName as string, caseArgument as string)
  process.stdout.write(JSON.stringify({ ...result, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }))
  process.exit(0)
}

function inChild(args: string[]): Record<string, number | string> {
  return JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, 'bench/chat-formats.bench.ts', '--case', ...args], { encoding: 'utf8' }),
  )
}

const cases: [string, string][] = [
  ...formats.map((format) => ['render', format] as [string, string]),
  ['plain-engine', 'qwen3'],
  ['plain-engine', 'qwen3.5'],
  ...formats.map((format) => ['parse', format] as [string, string]),
  ['tokens', 'qwen3'],
]
const results: Record<string, number | string>[] = []
for (const [name, argument] of cases) {
  results.push(inChild([name, argument]))
  process.stderr.write(`${JSON.stringify(results.at(-1))}\n`)
}
const find = (label: string) => results.find((result) => result.case === label)!
const conversations = await corpus()
const report = {
  bench: 'chat-formats',
  created_at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  corpus: {
    env_id: envId,
    conversations: conversations.length,
    messages: conversations.reduce((total, item) => total + item.messages.length, 0),
    mean_messages: Number(
      (conversations.reduce((total, item) => total + item.messages.length, 0) / conversations.length).toFixed(1),
    ),
    tools: conversations[0]?.tools.length,
  },
  results,
  ratios: {
    qwen3_render_vs_plain_engine: Number(
      (Number(find('render qwen3').messages_per_s) / Number(find('plain @huggingface/jinja qwen3').messages_per_s)).toFixed(2),
    ),
    qwen35_render_vs_plain_engine: Number(
      (Number(find('render qwen3.5').messages_per_s) / Number(find('plain @huggingface/jinja qwen3.5').messages_per_s)).toFixed(
        2,
      ),
    ),
    qwen35_parse_vs_render_messages: Number(
      (Number(find('parse qwen3.5').messages_per_s) / Number(find('render qwen3.5').messages_per_s)).toFixed(1),
    ),
  },
}
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/chat-formats.json', `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
