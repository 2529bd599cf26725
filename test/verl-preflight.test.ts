/**
 * `verl preflight` against fake installed trees: a VeRL package with a version file and patched or
 * unpatched sources, torch/vLLM the real probe imports, an nvidia-smi script and a checkpoint. A complete
 * machine passes and gets a launch command and a launch manifest; each failure mode (old VeRL, patch list
 * for another version, unpatched, edited, missing or undeclared patch, thinking mismatch, changed tool
 * schemas, changed release, small or missing GPU, old driver, over-budget prompts, no checkpoint, missing,
 * failed or foreign rollout gate) fails its own check and yields no command.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { qwen3Template } from '../src/chat/templates/qwen3-template.js'
import { sha256Hex } from '../src/io/sha256.js'
import { checkGateReport } from '../src/train/verl/gate-evidence.js'
import { type LaunchManifest, runVerlPreflight } from '../src/train/verl/run-verl-preflight.js'
import type { VerlConfig } from '../src/train/verl/write-verl-config.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'
import { configureRun, type FakeMachine, fakeMachine, gateReport, type VerlReleases, verlReleases } from './verl-fixture.js'

let releases: VerlReleases
let passingGate: string
let failingGate: string

beforeAll(async () => {
  releases = await verlReleases()
  passingGate = await gateReport(releases, { rate: 0.15, path: join(releases.root, 'gate-pass.json') })
  failingGate = await gateReport(releases, { rate: 0, path: join(releases.root, 'gate-fail.json') })
}, 180_000)

const config = (options: Omit<Parameters<typeof configureRun>[0], 'releases'>) => configureRun({ releases, ...options })

/** Preflight as the training machine runs it; an RLOO run gets the passing gate report unless `extra` names one. */
function preflight(
  run: string,
  machine: FakeMachine,
  extra: Partial<Parameters<typeof runVerlPreflight>[0]> = {},
): Promise<LaunchManifest> {
  const kind = (JSON.parse(readFileSync(join(run, 'verl_config.json'), 'utf8')) as VerlConfig).kind
  const gate = kind === 'rloo' && !('gateReport' in extra) ? { gateReport: servedBy(passingGate, { run }) } : {}
  return runVerlPreflight({
    runDirectory: run,
    patchList: machine.patchList,
    nvidiaSmi: machine.nvidiaSmi,
    host: { minGpuMemoryGib: 80, gpuName: 'H200', minDriver: '550', cuda: '13.0' },
    ...gate,
    ...extra,
  })
}

/**
 * A copy of a real gate report as if its endpoint had served this machine's checkpoint: vLLM names the
 * served checkpoint in `/v1/models` `root`, and each fake machine has its own checkpoint directory.
 */
function servedBy(
  path: string,
  target: { run?: string; model?: string },
  // biome-ignore lint/suspicious/noExplicitAny: a real report, edited field by field
  edit: (report: Record<string, any>) => void = () => {},
): string {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  report.model.served.root =
    target.model ??
    (JSON.parse(readFileSync(join(target.run as string, 'verl_config.json'), 'utf8')) as VerlConfig).settings.model_path
  edit(report)
  const copy = join(releases.root, `gate-${sha256Hex(JSON.stringify(report)).slice(0, 12)}.json`)
  writeFileSync(copy, JSON.stringify(report))
  return copy
}

const check = (manifest: LaunchManifest, name: string) => manifest.checks.find((entry) => entry.name === name)

function expectOnlyFailure(manifest: LaunchManifest, name: string, detail: RegExp): void {
  expect(manifest.status).toBe('failed')
  expect(manifest.command).toBeNull()
  expect(manifest.failed).toEqual([name])
  expect(check(manifest, name)?.detail).toMatch(detail)
}

describe('verl preflight', () => {
  it('passes on a complete machine: launch command, launch.sh and a launch manifest with provenance', async () => {
    const machine = fakeMachine()
    const { run, config: written } = await config({ kind: 'rloo', machine })
    const manifest = await preflight(run, machine)
    expect(manifest.failed).toEqual([])
    expect(manifest.status).toBe('passed')
    // The probed interpreter's own path runs the trainer, not the configured name for it.
    const host = check(manifest, 'host')?.facts as { python: { executable: string; imports: Record<string, unknown> } }
    const probed = host.python
    expect(probed.executable).not.toBe(machine.python)
    expect(manifest.command).toContain(` ${probed.executable} -m verl.trainer.main_ppo `)
    expect(manifest.command).toContain(' trainer.use_v1=False ')
    expect(Object.keys(probed.imports)).toEqual(
      expect.arrayContaining(['verl.trainer.main_ppo', 'verl.trainer.main_ppo_v0', 'vllm']),
    )
    expect(Object.values(probed.imports).every((error) => error === null)).toBe(true)
    expect(manifest.command).toContain(`RELEASEOPS_VERL_TASK=${join(run, 'task.json')}`)
    expect(readFileSync(join(run, 'launch.sh'), 'utf8')).toContain(manifest.command as string)
    expect(JSON.parse(readFileSync(join(run, 'launch_manifest.json'), 'utf8'))).toEqual(manifest)
    expect(check(manifest, 'verl_version')?.facts).toMatchObject({ version: '0.9.0', verl_root: resolve(machine.verlRoot) })
    expect(check(manifest, 'host')?.facts).toMatchObject({
      gpus: [{ name: 'NVIDIA H200', memory_mib: 143771, driver: '570.86.15' }],
      python: { torch: '2.9.0+cu130', torch_cuda: '13.0', verl: '0.9.0', vllm: '0.11.0' },
    })
    expect(check(manifest, 'reference_checkpoint')?.facts).toMatchObject({
      config_sha256: sha256Hex(readFileSync(join(machine.model, 'config.json'))),
      weight_index: {
        file: 'model.safetensors.index.json',
        sha256: sha256Hex(readFileSync(join(machine.model, 'model.safetensors.index.json'))),
      },
    })
    type Splits = Record<string, { rows: number; max_tokens: number; over_budget: number }>
    const budget = check(manifest, 'token_budget')?.facts as {
      budget: number
      splits: Splits
      response: { budget: number; splits: Splits }
    }
    expect(budget.budget).toBe(written.settings.max_prompt_length)
    expect(budget.splits.train?.rows).toBeGreaterThan(0)
    // Every cascade row is a stage-1 episode: each gets its three-call reference response measured.
    expect(budget.response.budget).toBe(written.settings.max_response_length)
    expect(budget.response.splits.train?.rows).toBe(budget.splits.train?.rows)
    expect(budget.response.splits.train?.max_tokens).toBeGreaterThan(100)
    expect(budget.response.splits.train?.max_tokens).toBeLessThan(written.settings.max_response_length)
    expect(budget.splits.train?.max_tokens).toBeGreaterThan(500)
    expect(check(manifest, 'release')?.facts).toMatchObject({
      kind: 'rl-cascade',
      artifacts_sha256: written.release.artifacts_sha256,
    })
  })

  it('SFT runs on stock VeRL: the original patches are not needed, another declared SFT patch is still checked', async () => {
    const machine = fakeMachine({ patched: false })
    const { run } = await config({ kind: 'sft', machine })
    const passed = await preflight(run, machine)
    expect(passed.failed).toEqual([])
    expect(check(passed, 'verl_patches')?.facts).toEqual({
      files: {},
      not_needed: ['chat-template-system-first', 'multiturn-sft-prefix-diff'],
    })
    expect(check(passed, 'token_budget')?.detail).toMatch(/max_length=9216/)
    expect(check(passed, 'tools_and_format')?.detail).toMatch(/qwen3\.5 \(template\) → qwen3_coder/)
    // The launch plan: SFT → VeRL's model merger on the last checkpoint → gate of the merged model → RLOO.
    expect(passed.plan?.map((step) => step.name)).toEqual(['sft', 'merge', 'gate', 'rloo'])
    expect(passed.plan?.[0]?.command).toBe(passed.command)
    expect(passed.plan?.[1]?.command).toContain(
      `-m verl.model_merger merge --backend fsdp --local_dir ${join(run, 'checkpoints', 'global_step_3')} --target_dir ${join(run, 'merged')}`,
    )
    expect(passed.plan?.[3]?.command).toContain(`--gate-report ${join(run, 'gate.json')}`)
    expect(readFileSync(join(run, 'launch.sh'), 'utf8')).toMatch(/# then merge: .*verl\.model_merger merge/)
    expect(passed.command).toMatch(/data\.max_token_len_per_gpu=9216/)

    const list = JSON.parse(readFileSync(machine.patchList, 'utf8'))
    list.patches.push({
      id: 'local-sft-fix',
      required_for: ['sft'],
      files: [{ path: 'utils/dataset/multiturn_sft_dataset.py', sha256: 'a'.repeat(64), unpatched_sha256: 'b'.repeat(64) }],
    })
    writeFileSync(machine.patchList, JSON.stringify(list))
    expectOnlyFailure(
      await preflight(run, machine),
      'verl_patches',
      /local-sft-fix: utils\/dataset\/multiturn_sft_dataset\.py is unknown content/,
    )
  })

  it("refuses a run whose checkpoint template, parser or format no longer agree with the run's family", async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    writeFileSync(join(machine.model, 'tokenizer_config.json'), JSON.stringify({ chat_template: qwen3Template }))
    expectOnlyFailure(
      await preflight(run, machine),
      'tools_and_format',
      /the checkpoint's chat template is qwen3's, the run was written for qwen3\.5/,
    )
    writeFileSync(join(machine.model, 'tokenizer_config.json'), '{}')
    expectOnlyFailure(await preflight(run, machine), 'tools_and_format', /no longer ships the qwen3\.5 template/)
  })

  it('an unpatched tree does not block RLOO (no patch is required there); an old or mismatched VeRL does', async () => {
    const machine = fakeMachine({ patched: false })
    const { run } = await config({ kind: 'rloo', machine })
    expect((await preflight(run, machine)).failed).toEqual([])
    machine.setVersion('0.8.0')
    const old = await preflight(run, machine)
    expect(old.failed).toContain('verl_version')
    expect(check(old, 'verl_version')?.detail).toMatch(/older than 0\.9\.0/)
    const newer = fakeMachine({ verl: '0.10.0' })
    expectOnlyFailure(
      await preflight(run, newer, { python: newer.python }),
      'verl_version',
      /patch list is for VeRL 0\.9\.0, VeRL 0\.10\.0 is installed/,
    )
    expectOnlyFailure(
      await preflight(run, machine, { verlRoot: join(machine.root, 'nowhere') }),
      'verl_version',
      /no VeRL installation/,
    )
  })

  it('fails the thinking, tools, release and run-directory checks when they no longer match', async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    expectOnlyFailure(
      await preflight(run, machine, { sftRelease: releases.thinkingTrajectory }),
      'release',
      /fine-tuned with enable_thinking=true, the RL config says false/,
    )
    expect((await preflight(run, machine, { sftRelease: releases.trajectory })).failed).toEqual([])

    const tools = join(run, 'tool_schemas.json')
    const original = readFileSync(tools, 'utf8')
    const schemas = JSON.parse(original)
    writeFileSync(tools, JSON.stringify(schemas.slice(0, 3), null, 2))
    const changed = await preflight(run, machine)
    expect(changed.failed.sort()).toEqual(['run_directory', 'tools_and_format'])
    expect(check(changed, 'tools_and_format')?.detail).toMatch(/tool_schemas\.json differs/)
    writeFileSync(tools, original)

    const configPath = join(run, 'verl_config.json')
    const written = readFileSync(configPath, 'utf8')
    const edited = JSON.parse(written) as VerlConfig
    edited.overrides = edited.overrides.map((item) =>
      item === 'algorithm.adv_estimator=rloo' ? 'algorithm.adv_estimator=grpo' : item,
    )
    writeFileSync(configPath, JSON.stringify(edited))
    expectOnlyFailure(
      await preflight(run, machine),
      'run_directory',
      /verl_config\.json overrides differ from what its settings give/,
    )
    writeFileSync(configPath, JSON.stringify({ ...JSON.parse(written), settings: { ...edited.settings, rollout_n: 1 } }))
    expect(check(await preflight(run, machine), 'run_directory')?.detail).toMatch(/settings no longer pass validation/)
    writeFileSync(configPath, written)

    const copy = join(temporaryDirectory('verl-release'), 'rl-cascade')
    cpSync(releases.cascade, copy, { recursive: true })
    const moved = await config({ kind: 'rloo', machine, release: copy })
    copyFileSync(join(copy, 'val.parquet'), join(copy, 'test.parquet'))
    expectOnlyFailure(await preflight(moved.run, machine), 'release', /test\.parquet has sha256/)
  })

  it('fails the host gate on a small GPU, a missing GPU or an old driver, and the budget and checkpoint checks', async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    machine.setGpu('NVIDIA A10G, 23028, 535.104.05')
    const small = await preflight(run, machine)
    expectOnlyFailure(small, 'host', /GPU 0 is NVIDIA A10G, not H200; GPU 0 has 22\.5 GiB, the run needs 80 GiB/)
    machine.setGpu('NVIDIA H200, 143771, 535.104.05')
    expectOnlyFailure(
      await preflight(run, machine, { host: { minGpuMemoryGib: 80, minDriver: '550' } }),
      'host',
      /driver 535\.104\.05 is older than 550/,
    )
    machine.setGpu(null)
    expectOnlyFailure(await preflight(run, machine), 'host', /no GPU facts \(.*exited with 9: NVIDIA-SMI has failed\)/)

    const tight = fakeMachine()
    const budget = await config({ kind: 'rloo', machine: tight, settings: { max_prompt_length: 256 } })
    expectOnlyFailure(await preflight(budget.run, tight), 'token_budget', /row\(s\) exceed 256 tokens/)
    const short = await config({ kind: 'rloo', machine: tight, settings: { max_response_length: 120 } })
    expectOnlyFailure(
      await preflight(short.run, tight),
      'token_budget',
      /three-call reference episode\(s\) exceed max_response_length=120/,
    )

    // The trainer's own imports, imported by the training interpreter: a plain `pip install verl` without
    // the v0 runner (or with a module raising at import) is caught before launch. No patch list is needed.
    const partial = fakeMachine()
    const missing = await config({ kind: 'rloo', machine: partial })
    rmSync(join(partial.site, 'verl', 'trainer', 'main_ppo_v0.py'))
    writeFileSync(
      join(partial.site, 'vllm', '__init__.py'),
      "raise ImportError('libcudart.so.13: cannot open shared object file')\n",
    )
    expectOnlyFailure(
      await preflight(missing.run, partial, { patchList: undefined }),
      'host',
      /the trainer imports verl\.trainer\.main_ppo_v0, which fails: ModuleNotFoundError: No module named 'verl\.trainer\.main_ppo_v0'; the trainer imports vllm, which fails: ImportError: libcudart/,
    )

    const bare = fakeMachine()
    const noModel = await config({ kind: 'rloo', machine: bare })
    rmSync(join(bare.model, 'config.json'))
    expectOnlyFailure(await preflight(noModel.run, bare), 'reference_checkpoint', /config\.json is missing/)
  })

  it('RLOO needs a passed rollout gate of this release in this thinking mode; its evidence goes into the manifest', async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    const passed = await preflight(run, machine)
    const gate = JSON.parse(readFileSync(passingGate, 'utf8'))
    expect(check(passed, 'rollout_gate')).toMatchObject({
      passed: true,
      facts: {
        status: 'passed',
        numerator: gate.numerator,
        denominator: gate.denominator,
        model: { name: 'scripted-grader' },
        split: 'val',
      },
    })
    expect(gate.rate).toBeGreaterThanOrEqual(0.05)
    expectOnlyFailure(await preflight(run, machine, { gateReport: undefined }), 'rollout_gate', /no rollout gate report/)
    expectOnlyFailure(
      await preflight(run, machine, { gateReport: servedBy(failingGate, { model: machine.model }) }),
      'rollout_gate',
      /the gate failed \(rate 0\)/,
    )
    const other = join(releases.root, 'gate-other.json')
    writeFileSync(
      other,
      JSON.stringify({ ...gate, release: { ...gate.release, export_report_sha256: sha256Hex('another release') } }),
    )
    expectOnlyFailure(
      await preflight(run, machine, { gateReport: servedBy(other, { model: machine.model }) }),
      'rollout_gate',
      /another release/,
    )
    const thinking = servedBy(passingGate, { model: machine.model }, (report) => {
      report.thinking = { enable_thinking: true }
    })
    expectOnlyFailure(
      await preflight(run, machine, { gateReport: thinking }),
      'rollout_gate',
      /enable_thinking=true, the run uses false/,
    )
  })

  it('refuses a gate report with other bounds, too few episodes, another release, model or format, each with a code', {
    timeout: 180_000,
  }, async () => {
    const machine = fakeMachine()
    const { run } = await config({ kind: 'rloo', machine })
    // The gate check itself (the full preflight of each case would take minutes on two cores).
    const written = JSON.parse(readFileSync(join(run, 'verl_config.json'), 'utf8')) as VerlConfig
    const reasons = async (gateReport: string, extra: { gateSplit?: string; gateMinDenominator?: number } = {}) => {
      const result = checkGateReport(gateReport, written, {
        ...(extra.gateSplit ? { split: extra.gateSplit } : {}),
        ...(extra.gateMinDenominator !== undefined ? { minDenominator: extra.gateMinDenominator } : {}),
      })
      expect(result.passed).toBe(false)
      expect(result.detail).toContain(`[${String(((result.facts?.reasons ?? []) as string[])[0])}]`)
      return result.facts?.reasons
    }
    const wide = servedBy(passingGate, { model: machine.model }, (report) => {
      report.rule.lower = 0
      report.rule.upper = 1
    })
    expect(await reasons(wide)).toEqual(['gate_bounds_not_formal'])
    const exploration = servedBy(passingGate, { model: machine.model }, (report) => {
      report.rule.formal = false
    })
    expect(await reasons(exploration)).toEqual(['gate_bounds_not_formal'])
    const gate = JSON.parse(readFileSync(passingGate, 'utf8'))
    const few = servedBy(passingGate, { model: machine.model }, (report) => {
      report.denominator = 4
      report.numerator = 1
    })
    expect(await reasons(few)).toEqual(['gate_denominator_below_minimum'])
    // The whole split is the default minimum; a stricter one is configurable.
    expect(await reasons(servedBy(passingGate, { model: machine.model }), { gateMinDenominator: gate.denominator + 1 })).toEqual([
      'gate_denominator_below_minimum',
    ])
    const otherRelease = servedBy(passingGate, { model: machine.model }, (report) => {
      report.release.export_report_sha256 = sha256Hex('another release')
    })
    expect(await reasons(otherRelease)).toEqual(['gate_release_mismatch'])
    // A low minimum isolates the split check (the test split may hold more rows than the gated val split).
    expect(await reasons(servedBy(passingGate, { model: machine.model }), { gateSplit: 'test', gateMinDenominator: 1 })).toEqual([
      'gate_split_mismatch',
    ])
    const otherModel = servedBy(passingGate, { model: machine.model }, (report) => {
      report.model.served.root = '/models/base'
    })
    expect(await reasons(otherModel)).toEqual(['gate_model_mismatch'])
    expect(await reasons(passingGate)).toEqual(['gate_model_mismatch'])
    const anonymous = servedBy(passingGate, { model: machine.model }, (report) => {
      report.model.served = null
    })
    expect(await reasons(anonymous)).toEqual(['gate_model_unidentified'])
    const otherFormat = servedBy(passingGate, { model: machine.model }, (report) => {
      report.chat.mode = 'qwen3'
    })
    expect(await reasons(otherFormat)).toEqual(['gate_format_mismatch'])
    // A report is judged again on its own signals (an edited or older one too): each failure its own code.
    const collapsed = servedBy(passingGate, { model: machine.model }, (report) => {
      report.per_prompt.mixed_share = 0
      report.signals.tool_use.share = 0
      report.signals.answers.effective_ratio = 0.05
    })
    expect(await reasons(collapsed)).toEqual(['gate_no_learning_signal', 'gate_no_tool_use', 'gate_degenerate_answers'])
    const single = servedBy(passingGate, { model: machine.model }, (report) => {
      report.limits.samples = 1
    })
    expect(await reasons(single)).toEqual(['gate_too_few_samples'])
    const listed = servedBy(passingGate, { model: machine.model }, (report) => {
      report.status = 'failed'
      report.reasons = [{ code: 'no_learning_signal', message: 'no prompt is mixed', measured: 0, threshold: 0.05 }]
    })
    expect(await reasons(listed)).toEqual(['gate_not_passed', 'gate_no_learning_signal'])
    // RLOO from the merged SFT checkpoint: vLLM served the adapter (root) on the merged base (parent).
    const adapter = join(machine.model, 'lora_adapter')
    const lora = await config({ kind: 'rloo', machine, settings: { lora_adapter_path: adapter } })
    expect(lora.config.overrides).toContain(`actor_rollout_ref.model.lora_adapter_path=${adapter}`)
    const viaAdapter = servedBy(passingGate, { model: adapter }, (report) => {
      report.model.served.parent = machine.model
    })
    expect((await preflight(lora.run, machine, { gateReport: viaAdapter })).failed).toEqual([])
    const baseOnly = servedBy(passingGate, { model: machine.model })
    const refused = await preflight(lora.run, machine, { gateReport: baseOnly })
    expect(check(refused, 'rollout_gate')?.facts?.reasons).toEqual(['gate_model_mismatch'])
    const passed = await preflight(run, machine)
    expect(check(passed, 'rollout_gate')?.detail).toMatch(/^passed: \d+\/\d+ nonzero \([\d.]+\) in \[0\.05, 0\.3\]/)
  })

  it('the CLI prints the launch command and exits 0, or lists the failures and exits 1', () => {
    const machine = fakeMachine()
    const run = join(temporaryDirectory('verl-cli'), 'run')
    const cli = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), ...args], {
        cwd: repositoryRoot,
        encoding: 'utf8',
      })
    const files = releases.files
    const configured = cli([
      'verl',
      'config',
      '--kind',
      'rloo',
      '--release',
      releases.cascade,
      '--model-path',
      machine.model,
      '--out-dir',
      run,
      '--registry',
      files.registry,
      '--corpus',
      files.corpus,
      '--task-config',
      files.taskConfig,
      '--grading-manifest',
      files.gradingManifest,
      '--python',
      machine.python,
      '--rollout-n',
      '8',
    ])
    expect(configured.status, configured.stderr).toBe(0)
    const args = [
      'verl',
      'preflight',
      '--run',
      run,
      '--patch-list',
      machine.patchList,
      '--nvidia-smi',
      machine.nvidiaSmi,
      '--gpu-name',
      'H200',
      '--min-gpu-memory-gib',
      '80',
      '--gate-report',
      servedBy(passingGate, { model: machine.model }),
    ]
    const passed = cli(args)
    expect(passed.status, passed.stderr).toBe(0)
    expect(passed.stdout).toMatch(/verl\.trainer\.main_ppo .*actor_rollout_ref\.rollout\.n=8/)
    machine.setVersion('0.8.2')
    const failed = cli(args)
    expect(failed.status).toBe(1)
    expect(failed.stdout).toBe('')
    expect(failed.stderr).toMatch(/FAIL verl_version: VeRL 0\.8\.2 is older than 0\.9\.0/)
    expect(existsSync(join(run, 'launch.sh'))).toBe(false)
  }, 180_000)
})
