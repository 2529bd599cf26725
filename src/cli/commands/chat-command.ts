/**
 * @module cli: `releaseops chat render|parse|tokens`. `render` reads `{"messages", "tools",
 * "add_generation_prompt", "enable_thinking"}` on stdin and writes the prompt exactly (nothing added);
 * `parse` reads model text and writes `{content, reasoning, tool_calls, issues, repairs}` as JSON;
 * `tokens` counts stdin with the Qwen3 tokenizer.
 */
import { readFile } from 'node:fs/promises'
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { envTools } from '../../agent/episode-prompt.js'
import { qwen3TokenCounter } from '../../agent/token-counter.js'
import { type ChatTool, chatToolSchema, renderRequestSchema } from '../../chat/chat-message.js'
import { chatFormat, chatFormatIds } from '../../chat/format-registry.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { envRegistry } from '../../envs/index.js'

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InvalidInputError({
      code: 'invalid_json',
      path: where,
      message: `${where} is not JSON: ${(error as Error).message}`,
      issues: [],
    })
  }
}

async function toolsFrom(options: { tools?: string; env?: string }): Promise<ChatTool[] | undefined> {
  if (options.env) return envTools(envRegistry.spec(options.env))
  if (!options.tools) return undefined
  const parsed = chatToolSchema.array().safeParse(parseJson(await readFile(options.tools, 'utf8'), options.tools))
  if (!parsed.success) {
    throw new InvalidInputError({
      code: 'invalid_tools',
      path: options.tools,
      message: `${options.tools} is not a list of OpenAI tools.`,
      issues: parsed.error.issues.map((issue) => ({ code: issue.code, path: issue.path.join('.'), message: issue.message })),
    })
  }
  return parsed.data
}

const formatOption = () => new Option('--format <id>', 'chat format').choices(chatFormatIds).makeOptionMandatory()

export function registerChatCommand(program: CommandUnknownOpts): void {
  const chat = program
    .command('chat')
    .description('Render prompts with the official chat templates, parse model text, count tokens.')
  chat
    .command('render')
    .description(
      'stdin: {"messages", "tools", "add_generation_prompt", "enable_thinking"} → stdout: the prompt text, byte for byte',
    )
    .addOption(formatOption())
    .action(async (options) => {
      const parsed = renderRequestSchema.safeParse(parseJson(await readStdin(), 'stdin'))
      if (!parsed.success) {
        throw new InvalidInputError({
          code: 'invalid_render_request',
          path: 'stdin',
          message: `The render request is invalid: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
          issues: parsed.error.issues.map((issue) => ({ code: issue.code, path: issue.path.join('.'), message: issue.message })),
        })
      }
      const request = parsed.data
      process.stdout.write(
        chatFormat(options.format).render({
          messages: request.messages,
          tools: request.tools ?? null,
          addGenerationPrompt: request.add_generation_prompt ?? false,
          ...(request.enable_thinking === undefined ? {} : { enableThinking: request.enable_thinking }),
        }),
      )
    })
  chat
    .command('parse')
    .description('stdin: model text → stdout: {content, reasoning, tool_calls, issues, repairs} as JSON')
    .addOption(formatOption())
    .option('--tools <file.json>', 'OpenAI tools to check names and type values against')
    .option('--env <id>', "use this env's tools")
    .option('--open-think', 'the prompt ended inside an open <think> (qwen3.5 thinking generation prompt)')
    .action(async (options) => {
      const tools = await toolsFrom(options)
      const parsed = chatFormat(options.format).parse(await readStdin(), {
        tools: tools ?? null,
        openThink: options.openThink === true,
      })
      const output = {
        content: parsed.content,
        reasoning: parsed.reasoning,
        tool_calls: parsed.toolCalls,
        issues: parsed.issues,
        repairs: parsed.repairs,
      }
      process.stdout.write(`${JSON.stringify(output, null, 2)}\n`)
    })
  chat
    .command('tokens')
    .description('stdin: text → stdout: its Qwen3 token count (with --ids, the ids as JSON)')
    .option('--ids', 'print the token ids')
    .action(async (options) => {
      const counter = await qwen3TokenCounter()
      const text = await readStdin()
      process.stdout.write(options.ids ? `${JSON.stringify(counter.encode(text))}\n` : `${counter.count(text)}\n`)
    })
}
