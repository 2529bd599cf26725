/**
 * @module train/verl: the Hydra overrides of a VeRL ≥ 0.9 run (pure). SFT runs `verl.trainer.sft_trainer`
 * (flat `data.*_key` keys: the trajectory Parquet is read directly by the multi-turn SFT dataset); RLOO runs
 * `verl.trainer.main_ppo` with a multi-turn vLLM rollout parsed by the model family's tool parser, our function tools, our
 * agent loop (one tool call per turn, three calls and an answer) and `compute_score` as the reward entry
 * point. Paths are absolute on the machine the run directory lives on.
 */
import { join } from 'node:path'
import type { VerlRunSettings } from './verl-run-settings.js'

/** The agent loop `python/releaseops_verl/agent_loop.py` registers. */
export const verlAgentLoopName = 'releaseops_grading'
/** The SFT dataset class (`data.custom_cls`) of `python/releaseops_verl/verl_sft_dataset.py`. */
const verlSftDatasetClass = 'TrajectorySFTDataset'

/** Tokens per GPU per micro-batch with dynamic batch size: never below one whole conversation. */
function sftTokenLengthPerGpu(settings: VerlRunSettings): number {
  return Math.max(settings.max_token_len_per_gpu ?? settings.max_length, settings.max_length)
}

export interface VerlRunPaths {
  run: string
  release: string
}

export const verlRunFiles = {
  config: 'verl_config.json',
  agentLoop: 'agent_loop.yaml',
  task: 'task.json',
  toolSchemas: 'tool_schemas.json',
  package: 'releaseops_verl',
  launchManifest: 'launch_manifest.json',
  launchScript: 'launch.sh',
  /** SFT: the plan's gate step (written by the preflight). */
  gateScript: 'gate.sh',
} as const

const flag = (value: boolean) => (value ? 'True' : 'False')

function trainerOverrides(settings: VerlRunSettings, paths: { run: string }): string[] {
  return [
    `trainer.project_name=${settings.project_name}`,
    `trainer.experiment_name=${settings.experiment_name ?? `${settings.kind}-run`}`,
    `trainer.default_local_dir=${join(paths.run, 'checkpoints')}`,
    `trainer.n_gpus_per_node=${settings.gpus_per_node}`,
    `trainer.nnodes=${settings.nodes}`,
    `trainer.total_epochs=${settings.total_epochs}`,
    `trainer.total_training_steps=${settings.total_training_steps}`,
    `trainer.save_freq=${settings.save_freq}`,
    `trainer.test_freq=${settings.test_freq}`,
    "trainer.logger=['console']",
  ]
}

export function sftOverrides(settings: VerlRunSettings, paths: VerlRunPaths): string[] {
  return [
    `data.train_files=${join(paths.release, 'train.parquet')}`,
    `data.val_files=${join(paths.release, 'val.parquet')}`,
    'data.messages_key=messages',
    'data.tools_key=tools',
    'data.enable_thinking_key=enable_thinking',
    `data.enable_thinking_default=${flag(settings.enable_thinking)}`,
    `data.max_length=${settings.max_length}`,
    'data.truncation=error',
    'data.pad_mode=no_padding',
    // Stock VeRL renders message by message (the Qwen3.5 templates refuse that); ours renders each row once.
    `data.custom_cls.path=${join(paths.run, verlRunFiles.package, 'verl_sft_dataset.py')}`,
    `data.custom_cls.name=${verlSftDatasetClass}`,
    'data.use_dynamic_bsz=True',
    `data.max_token_len_per_gpu=${sftTokenLengthPerGpu(settings)}`,
    `data.train_batch_size=${settings.train_batch_size}`,
    `data.micro_batch_size_per_gpu=${settings.micro_batch_size_per_gpu}`,
    `model.path=${settings.model_path}`,
    `model.lora_rank=${settings.lora_rank}`,
    `model.lora_alpha=${settings.lora_alpha}`,
    `optim.lr=${settings.learning_rate}`,
    ...trainerOverrides(settings, paths),
  ]
}

/**
 * The overrides every RLOO run shares: estimator, data, model, actor, a multi-turn vLLM rollout parsed by
 * the family's tool parser with one call per turn, the agent loop (`agent`, its YAML in the run), the
 * reference and trainer. `use_v1=False`: 0.9.0's v1 trainer imports TransferQueue, which `pip install
 * verl` does not install.
 */
export function commonRlooOverrides(
  settings: VerlRunSettings,
  paths: { run: string; train: string; val: string },
  toolParser: string,
  agent: string,
): string[] {
  const rollout = 'actor_rollout_ref.rollout'
  const actor = 'actor_rollout_ref.actor'
  return [
    'algorithm.adv_estimator=rloo',
    'algorithm.use_kl_in_reward=False',
    `data.train_files=${paths.train}`,
    `data.val_files=${paths.val}`,
    'data.prompt_key=prompt',
    `data.max_prompt_length=${settings.max_prompt_length}`,
    `data.max_response_length=${settings.max_response_length}`,
    `data.train_batch_size=${settings.train_batch_size}`,
    'data.truncation=error',
    'data.filter_overlong_prompts=False',
    'data.return_raw_chat=True',
    `+data.apply_chat_template_kwargs.enable_thinking=${flag(settings.enable_thinking)}`,
    `actor_rollout_ref.model.path=${settings.model_path}`,
    `actor_rollout_ref.model.lora_rank=${settings.lora_rank}`,
    `actor_rollout_ref.model.lora_alpha=${settings.lora_alpha}`,
    ...(settings.lora_adapter_path ? [`actor_rollout_ref.model.lora_adapter_path=${settings.lora_adapter_path}`] : []),
    `${actor}.optim.lr=${settings.learning_rate}`,
    `${actor}.ppo_mini_batch_size=${settings.ppo_mini_batch_size}`,
    `${actor}.ppo_micro_batch_size_per_gpu=${settings.micro_batch_size_per_gpu}`,
    `${actor}.use_kl_loss=True`,
    `${actor}.kl_loss_coef=${settings.kl_loss_coef}`,
    `${rollout}.name=vllm`,
    `${rollout}.mode=async`,
    `${rollout}.n=${settings.rollout_n}`,
    `${rollout}.gpu_memory_utilization=${settings.gpu_memory_utilization}`,
    `${rollout}.max_model_len=${settings.max_model_length}`,
    `${rollout}.log_prob_micro_batch_size_per_gpu=${settings.micro_batch_size_per_gpu}`,
    `${rollout}.multi_turn.enable=True`,
    `${rollout}.multi_turn.format=${toolParser}`,
    `${rollout}.multi_turn.max_parallel_calls=1`,
    `${rollout}.multi_turn.max_assistant_turns=${settings.max_tool_calls + 1}`,
    `${rollout}.multi_turn.max_user_turns=${settings.max_tool_calls}`,
    `${rollout}.multi_turn.max_tool_response_length=${settings.max_tool_response_length}`,
    `${rollout}.multi_turn.tool_response_truncate_side=right`,
    `${rollout}.agent.default_agent_loop=${agent}`,
    `${rollout}.agent.agent_loop_config_path=${join(paths.run, verlRunFiles.agentLoop)}`,
    `actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=${settings.micro_batch_size_per_gpu}`,
    'reward.reward_manager.name=naive',
    ...trainerOverrides(settings, paths),
    'trainer.use_v1=False',
  ]
}

/** The grading run: our function tools and `compute_score` on top of the shared RLOO overrides. */
export function rlooOverrides(settings: VerlRunSettings, paths: VerlRunPaths, toolParser: string): string[] {
  const files = { run: paths.run, train: join(paths.release, 'train.parquet'), val: join(paths.release, 'val.parquet') }
  return [
    ...commonRlooOverrides(settings, files, toolParser, verlAgentLoopName),
    `actor_rollout_ref.rollout.multi_turn.function_tool_path=${join(paths.run, verlRunFiles.package, 'verl_function_tools.py')}`,
    `reward.custom_reward_function.path=${join(paths.run, verlRunFiles.package, 'verl_reward.py')}`,
    'reward.custom_reward_function.name=compute_score',
  ]
}

/** The agent-loop YAML (a Hydra-instantiated list): our loop, the task bundle and the tool-call budget. */
export function agentLoopYaml(settings: VerlRunSettings): string {
  return [
    `- name: ${verlAgentLoopName}`,
    '  _target_: releaseops_verl.agent_loop.GradingAgentLoop',
    // No task_path: the loop reads $RELEASEOPS_VERL_TASK, else the run's own task.json beside its
    // package copy, so the file holds no absolute path and the run directory can move (issue 37).
    `  max_tool_calls: ${settings.max_tool_calls}`,
    '',
  ].join('\n')
}

/** The trainer's module and launcher. */
export function verlEntryPoint(settings: VerlRunSettings): string[] {
  return settings.kind === 'sft'
    ? [
        settings.python,
        '-m',
        'torch.distributed.run',
        '--standalone',
        `--nnodes=${settings.nodes}`,
        `--nproc_per_node=${settings.gpus_per_node}`,
        '-m',
        'verl.trainer.sft_trainer',
      ]
    : [settings.python, '-m', 'verl.trainer.main_ppo']
}

/**
 * What the entry point imports before training starts, as the preflight has the training interpreter
 * import it: `main_ppo` (Hydra, Ray, OmegaConf), with `use_v1=False` its v0 task runner, the workers and
 * agent-loop machinery that runner loads, vLLM, and our own tools and agent loop. (`use_v1=True` would
 * add `transfer_queue`, in VeRL's requirements.txt but not in its setup.py.)
 */
export function verlEntryImports(settings: VerlRunSettings, agentLoop = 'releaseops_verl.agent_loop'): string[] {
  return settings.kind === 'sft'
    ? ['verl.trainer.sft_trainer', 'releaseops_verl.verl_sft_dataset']
    : [
        'verl.trainer.main_ppo',
        'verl.trainer.main_ppo_v0',
        'verl.workers.engine_workers',
        'verl.experimental.agent_loop',
        'vllm',
        ...(agentLoop === 'releaseops_verl.agent_loop' ? ['releaseops_verl.verl_function_tools'] : []),
        agentLoop,
      ]
}

/** Quotes a word for a POSIX shell (only when needed). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./=:,+@%-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`
}
