/**
 * `verl config`: the RLOO and SFT run directories (Hydra overrides for VeRL ≥ 0.9, agent-loop YAML, the
 * task bundle and a copy of the Python adapters), the copied Python package working on its own against the
 * hash-checked bundle and agreeing with the TypeScript env, and the releases a run refuses.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { qwen3Template } from '../src/chat/templates/qwen3-template.js'
import type { DatasetRow } from '../src/core/env/env-dataset.js'
import { demoGradingDataset } from '../src/envs/grading/demo/demo-task.js'
import { demoDatasetName } from '../src/envs/grading/demo/demo-taxonomy.js'
import { GradingEnv, type GradingObservation } from '../src/envs/grading/grading-env.js'
import { verlVisibleTools } from '../src/eval/gate/verl-visible-tools.js'
import { sha256Hex } from '../src/io/sha256.js'
import { loadGradingFromManifest, loadTaskFiles } from '../src/release/inputs/load-task-files.js'
import { readTrajectoryRows } from '../src/release/trajectories/read-trajectory-rows.js'
import { gradingToolSchemas } from '../src/train/verl/task-bundle.js'
import { testPython } from './support/python.js'
import { thrown } from './support/release-fixture.js'
import { configureRun, fakeMachine, type VerlReleases, verlReleases } from './verl-fixture.js'

let releases: VerlReleases

beforeAll(async () => {
  releases = await verlReleases()
}, 180_000)

/** Messages and tools of every row, as our reader returns them (null keys dropped, key order kept). */
function readReleaseRows(path: string): { messages: unknown; tools: unknown }[] {
  const rows: { messages: unknown; tools: unknown }[] = []
  readTrajectoryRows({
    bytes: readFileSync(path),
    metadataFields: ['field_name', 'table_name', 'field_description', 'table_description'],
    tools: verlVisibleTools(gradingToolSchemas()),
    onRow: (row) => rows.push({ messages: row.messages, tools: row.tools }),
    onError: (message) => {
      throw new Error(message)
    },
  })
  return rows
}

const config = (options: Omit<Parameters<typeof configureRun>[0], 'releases'>) => configureRun({ releases, ...options })

describe('verl config', () => {
  it('writes an RLOO run: rloo estimator, n ≥ 2, qwen3_coder multi-turn rollout, our tools, loop and reward', async () => {
    const machine = fakeMachine()
    const { run, config: written } = await config({ kind: 'rloo', machine })
    expect(written.overrides).toEqual(
      expect.arrayContaining([
        'algorithm.adv_estimator=rloo',
        'actor_rollout_ref.rollout.n=4',
        'actor_rollout_ref.rollout.multi_turn.format=qwen3_coder',
        'actor_rollout_ref.rollout.multi_turn.max_parallel_calls=1',
        'actor_rollout_ref.rollout.agent.default_agent_loop=releaseops_grading',
        'reward.custom_reward_function.name=compute_score',
        '+data.apply_chat_template_kwargs.enable_thinking=False',
        'trainer.use_v1=False',
      ]),
    )
    // Read only by a module VeRL 0.9.0 never imports: not written, not claimed.
    expect(written.overrides.some((entry) => entry.includes('tokenization_sanity_check_mode'))).toBe(false)
    expect(written.settings.kl_reference).toBe('base')
    await expect(
      config({
        kind: 'rloo',
        machine,
        settings: { kl_reference: 'sft', lora_adapter_path: join(machine.model, 'lora_adapter') },
      }),
    ).rejects.toMatchObject({ code: 'invalid_verl_settings', path: 'kl_reference' })
    expect(written.overrides).toContain(
      `actor_rollout_ref.rollout.multi_turn.function_tool_path=${join(run, 'releaseops_verl', 'verl_function_tools.py')}`,
    )
    expect(written.overrides).toContain(`reward.custom_reward_function.path=${join(run, 'releaseops_verl', 'verl_reward.py')}`)
    expect(readFileSync(join(run, 'agent_loop.yaml'), 'utf8')).toContain('_target_: releaseops_verl.agent_loop.GradingAgentLoop')
    for (const file of ['verl_function_tools.py', 'verl_reward.py', 'agent_loop.py', 'tools.py', 'reward.py'])
      expect(existsSync(join(run, 'releaseops_verl', file))).toBe(true)
    expect(existsSync(join(run, 'releaseops_verl', 'tests'))).toBe(false)
    expect(written.files['task.json']).toBe(sha256Hex(readFileSync(join(run, 'task.json'))))
    await expect(config({ kind: 'rloo', machine, settings: { rollout_n: 1 } })).rejects.toMatchObject({
      code: 'invalid_verl_settings',
    })
  })

  it("the run directory's own Python package answers as the TypeScript env does, from the hash-checked bundle", async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    const row = demoGradingDataset.rows('train')[0] as DatasetRow
    const extra = row.extra_info as { metadata: Record<string, string>; ground_truth_level: string; dataset: string }
    const groundTruth = (row.reward_model as { ground_truth: string }).ground_truth
    const task = loadTaskFiles({
      ...releases.files,
      grading: loadGradingFromManifest({ manifest: releases.files.gradingManifest, dataset: demoDatasetName }),
    }).task
    const env = new GradingEnv({ task })
    env.reset({ options: { row } })
    const search = { field_name: extra.metadata.field_name ?? '', table_name: extra.metadata.table_name ?? '' }
    const expected = env.render(env.step({ name: 'search_categories', arguments: search }).observation as GradingObservation)
    const answer = JSON.stringify({ answer: task.choices.byCategory(groundTruth).choiceId, level: extra.ground_truth_level })
    const script = [
      'import json, sys',
      'from releaseops_verl import verl_function_tools as tools, verl_reward as reward',
      'args = json.loads(sys.argv[1])',
      'print(json.dumps({"names": [s["function"]["name"] for s in tools.tool_schemas()], "search": tools.search_categories(**args["search"]),',
      '  "score": reward.compute_score(args["source"], args["answer"], args["gt"], {"dataset": args["dataset"], "ground_truth_level": args["level"], "stage": "stage1"})}))',
    ].join('\n')
    const payload = JSON.stringify({
      search,
      answer,
      gt: groundTruth,
      level: extra.ground_truth_level,
      dataset: demoDatasetName,
      source: `${demoDatasetName}/stage1`,
    })
    const result = spawnSync(testPython(), ['-c', script, payload], {
      cwd: machine.root,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: run, PYTHONDONTWRITEBYTECODE: '1', RELEASEOPS_VERL_TASK: '' },
    })
    expect(result.status, result.stderr).toBe(0)
    const output = JSON.parse(result.stdout) as { names: string[]; search: string; score: number }
    expect(output.names).toEqual(['search_categories', 'get_category_details', 'get_category_examples', 'browse_categories'])
    expect(output.search).toBe(expected)
    expect(output.score).toBe(1)
    writeFileSync(join(run, 'task', 'corpus.json'), '{"categories": []}')
    const tampered = spawnSync(testPython(), ['-c', script, payload], {
      cwd: machine.root,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: run, PYTHONDONTWRITEBYTECODE: '1', RELEASEOPS_VERL_TASK: '' },
    })
    expect(tampered.status).not.toBe(0)
    expect(tampered.stderr).toMatch(/corpus .* has sha256 [0-9a-f]{64}, the task bundle records/)
  })

  it('chooses the tool parser from the checkpoint template: hermes for Qwen3, qwen3_coder for Qwen3.5', async () => {
    const machine = fakeMachine()
    writeFileSync(join(machine.model, 'tokenizer_config.json'), JSON.stringify({ chat_template: qwen3Template }))
    const { config: written } = await config({ kind: 'rloo', machine })
    expect(written).toMatchObject({ model_family: 'qwen3', model_family_source: 'template', tool_parser: 'hermes' })
    expect(written.overrides).toContain('actor_rollout_ref.rollout.multi_turn.format=hermes')
    const named = await thrown(() => config({ kind: 'rloo', machine, settings: { model_family: 'qwen3.5' } }))
    expect(named.code).toBe('model_family_mismatch')
    writeFileSync(join(machine.model, 'tokenizer_config.json'), '{}')
    expect((await thrown(() => config({ kind: 'rloo', machine }))).code).toBe('model_family_unknown')
    const { config: set } = await config({ kind: 'rloo', machine, settings: { model_family: 'qwen3.5-nothink' } })
    expect(set).toMatchObject({ model_family: 'qwen3.5-nothink', model_family_source: 'setting', tool_parser: 'qwen3_coder' })
    const budget = await thrown(() =>
      config({ kind: 'sft', machine, settings: { max_length: 9216, max_token_len_per_gpu: 8192 } }),
    )
    expect(budget.code).toBe('invalid_verl_settings')
  })

  it('writes an SFT run with the flat VeRL ≥ 0.9 data keys, and refuses a release that does not fit', async () => {
    const machine = fakeMachine()
    const { run, config: written } = await config({ kind: 'sft', machine })
    expect(written.overrides).toEqual(
      expect.arrayContaining([
        'data.messages_key=messages',
        'data.tools_key=tools',
        'data.enable_thinking_key=enable_thinking',
        'data.enable_thinking_default=False',
        'data.truncation=error',
      ]),
    )
    expect(written.entry_point.slice(-2)).toEqual(['-m', 'verl.trainer.sft_trainer'])
    expect(written.overrides).toContain(`data.custom_cls.path=${join(run, 'releaseops_verl', 'verl_sft_dataset.py')}`)
    expect(written.overrides).toContain('data.custom_cls.name=TrajectorySFTDataset')
    // Dynamic batches never hold less than one whole conversation (VeRL asserts a row fits).
    expect(written.overrides).toEqual(
      expect.arrayContaining(['data.use_dynamic_bsz=True', 'data.max_length=9216', 'data.max_token_len_per_gpu=9216']),
    )
    expect(written).toMatchObject({ model_family: 'qwen3.5', model_family_source: 'template', tool_parser: 'qwen3_coder' })
    // VeRL reads the Parquet with pandas: padded null keys must go, every row must come back as exported.
    const expected = readReleaseRows(join(releases.trajectory, 'train.parquet'))
    const script = [
      'import json, sys',
      'import pandas as pd',
      'from releaseops_verl.verl_sft_dataset import drop_none_keys',
      'out = []',
      'for backend in ("numpy_nullable", "pyarrow"):',
      '    frame = pd.read_parquet(sys.argv[1], dtype_backend=backend)',
      '    out.append([{"messages": drop_none_keys(m), "tools": drop_none_keys(t)} for m, t in zip(frame["messages"], frame["tools"])])',
      'print(json.dumps(out, ensure_ascii=False))',
    ].join('\n')
    const result = spawnSync(testPython(), ['-c', script, join(releases.trajectory, 'train.parquet')], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, PYTHONPATH: run, PYTHONDONTWRITEBYTECODE: '1' },
    })
    expect(result.status, result.stderr).toBe(0)
    const [numpyRows, arrowRows] = JSON.parse(result.stdout) as unknown[][]
    expect(expected.length).toBeGreaterThan(0)
    expect(JSON.stringify(numpyRows)).toBe(JSON.stringify(expected))
    expect(JSON.stringify(arrowRows)).toBe(JSON.stringify(expected))
    expect((await thrown(() => config({ kind: 'sft', machine, release: releases.thinkingTrajectory }))).code).toBe(
      'enable_thinking_mismatch',
    )
    expect((await thrown(() => config({ kind: 'sft', machine, release: releases.rl }))).code).toBe('release_kind_mismatch')
    const raw = await thrown(() => config({ kind: 'rloo', machine, release: releases.rl }))
    expect(raw).toMatchObject({
      code: 'release_kind_mismatch',
      message: expect.stringMatching(/stage2 rows the agent loop refuses; build an rl-cascade mixture/),
    })
    expect((await thrown(() => config({ kind: 'rloo', machine, release: releases.trajectory }))).code).toBe(
      'release_kind_mismatch',
    )
  })
})
