/**
 * @module train/verl: the task bundle of a run directory: exact copies of the task files (registry,
 * corpus, task config, each dataset's grading standard verified against the grading manifest), a
 * `task.json` naming them with their SHA-256 (the Python side verifies every hash before use), and
 * `tool_schemas.json`, the tools exactly as the env publishes them. Paths are relative, so a run
 * directory can be copied to the training machine whole.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChatTool } from '../../chat/chat-message.js'
import { chatFormat } from '../../chat/format-registry.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { toOpenAiTool } from '../../core/tools/define-tool.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { categoryTools } from '../../envs/grading/tools/category-tools.js'
import { sha256File, sha256Hex } from '../../io/sha256.js'
import { type LoadedTask, loadGradingConfig, loadTaskFiles } from '../../release/inputs/load-task-files.js'
import { gradingForDatasets } from '../../release/planning/task-options.js'

const taskBundleFormat = 'releaseops-verl-task-v1'

export interface TaskBundleFiles {
  registry: string
  corpus: string
  taskConfig?: string
  /** One of: a grading manifest (an entry per dataset), or a single-dataset release's grading config. */
  gradingManifest?: string
  gradingConfig?: string
  datasets: readonly string[]
}

interface FileEntry {
  path: string
  sha256: string
}

export interface TaskBundle {
  format: typeof taskBundleFormat
  trajectory_format: string
  /** The run's chat-template thinking flag. */
  enable_thinking: boolean
  /** Whether the generation prompt leaves a reply inside an opened think block (Qwen3.5 with thinking on). */
  open_think: boolean
  /** What the generation prompt writes after `<|im_start|>assistant\n` (the answer contract drops it). */
  generation_prefill: string
  registry: FileEntry
  corpus: FileEntry
  task_config: FileEntry | null
  metadata_fields: string[]
  task_name: string
  datasets: Record<string, { grading: FileEntry }>
  tools: string[]
}

/** The grading tools in the shape VeRL's function tools are registered with. */
export function gradingToolSchemas(): ChatTool[] {
  return categoryTools.map((tool) => toOpenAiTool(tool) as ChatTool)
}

function copyInto(directory: string, relative: string, source: string): FileEntry {
  const bytes = readFileSync(source)
  copyFileSync(source, join(directory, relative))
  return { path: relative, sha256: sha256Hex(bytes) }
}

/** What a chat format's generation prompt writes after the assistant header, and whether it opens a think block. */
export function generationPrompt(formatId: string, enableThinking: boolean): { prefill: string; openThink: boolean } {
  const format = chatFormat(formatId)
  const text = format.render({ messages: [{ role: 'user', content: '.' }], addGenerationPrompt: true, enableThinking })
  const header = '<|im_start|>assistant\n'
  return { prefill: text.slice(text.lastIndexOf(header) + header.length), openThink: format.opensThink(enableThinking) }
}

/** Writes the bundle into `directory` (`chatFormat`: the model family's, default qwen3.5); returns it with each dataset's task. */
export function writeTaskBundle(options: {
  directory: string
  files: TaskBundleFiles
  enableThinking: boolean
  chatFormat?: string
}): {
  bundle: TaskBundle
  tasks: Record<string, LoadedTask>
} {
  const { directory, files } = options
  mkdirSync(join(directory, 'task', 'grading'), { recursive: true })
  const tasks: Record<string, LoadedTask> = {}
  const datasets: TaskBundle['datasets'] = {}
  const gradingOf = gradingForDatasets(files)
  for (const dataset of [...files.datasets].sort()) {
    const grading = gradingOf(dataset)
    tasks[dataset] = loadTaskFiles({
      registry: files.registry,
      corpus: files.corpus,
      ...(files.taskConfig ? { taskConfig: files.taskConfig } : {}),
      grading,
    })
    datasets[dataset] = { grading: copyInto(directory, join('task', 'grading', `${dataset}.json`), grading.path) }
  }
  const first = Object.values(tasks)[0] as LoadedTask
  const generation = generationPrompt(options.chatFormat ?? 'qwen3.5', options.enableThinking)
  const bundle: TaskBundle = {
    format: taskBundleFormat,
    trajectory_format: nativeToolTrajectoryFormat,
    enable_thinking: options.enableThinking,
    open_think: generation.openThink,
    generation_prefill: generation.prefill,
    registry: copyInto(directory, join('task', 'registry.json'), files.registry),
    corpus: copyInto(directory, join('task', 'corpus.json'), files.corpus),
    task_config: files.taskConfig ? copyInto(directory, join('task', 'task_config.json'), files.taskConfig) : null,
    metadata_fields: [...first.task.taskConfig.metadata_fields],
    task_name: first.task.taskConfig.task_name,
    datasets,
    tools: categoryTools.map((tool) => tool.name),
  }
  writeFileSync(join(directory, 'task.json'), `${JSON.stringify(bundle, null, 2)}\n`)
  writeFileSync(join(directory, 'tool_schemas.json'), `${JSON.stringify(gradingToolSchemas(), null, 2)}\n`)
  return { bundle, tasks }
}

/** Reads a run directory's `task.json` back into each dataset's task, every file verified by its sha256 first. */
export function readTaskBundle(directory: string): { bundle: TaskBundle; tasks: Record<string, GradingTask> } {
  const bundle = JSON.parse(readFileSync(join(directory, 'task.json'), 'utf8')) as TaskBundle
  const verified = (entry: FileEntry): string => {
    const path = join(directory, entry.path)
    const digest = sha256File(path)
    if (digest !== entry.sha256)
      throw new ReleaseOpsError({
        code: 'task_bundle_changed',
        path,
        message: `${path} has sha256 ${digest}; task.json records ${entry.sha256}.`,
      })
    return path
  }
  const tasks: Record<string, GradingTask> = {}
  for (const [dataset, entry] of Object.entries(bundle.datasets)) {
    tasks[dataset] = loadTaskFiles({
      registry: verified(bundle.registry),
      corpus: verified(bundle.corpus),
      ...(bundle.task_config ? { taskConfig: verified(bundle.task_config) } : {}),
      grading: loadGradingConfig(verified(entry.grading)),
    }).task
  }
  return { bundle, tasks }
}
