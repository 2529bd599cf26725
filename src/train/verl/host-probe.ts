/**
 * @module train/verl: the runbook's host gate, measured on the machine that will train: GPUs from
 * `nvidia-smi` (name, memory, driver) and the training interpreter's torch / CUDA / VeRL / vLLM, asked of
 * that interpreter itself. Probes are real processes with a timeout; a probe that cannot run is a failed
 * check with its reason, never an assumed value.
 */
import { spawnSync } from 'node:child_process'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { type CheckResult, compareVersions } from './verl-patches.js'

export interface GpuFact {
  name: string
  memory_mib: number
  driver: string
}

export interface PythonFacts {
  python: string
  /** The interpreter's own path (`sys.executable`): what the launch command runs. */
  executable: string
  torch: string | null
  torch_cuda: string | null
  cuda_available: boolean
  device_count: number
  verl: string | null
  verl_root: string | null
  vllm: string | null
  /** Each module the trainer will import → null when it imported, else the error it raised. */
  imports: Record<string, string | null>
}

export interface HostFacts {
  gpus: GpuFact[] | null
  gpu_error?: string
  python: PythonFacts | null
  python_error?: string
}

export interface HostRequirements {
  gpus: number
  gpuName?: string
  minGpuMemoryGib: number
  minDriver?: string
  cuda?: string
  needVllm: boolean
  minVllm?: string
}

const probeScript = [
  'import json, sys, importlib, importlib.metadata as m',
  'def version(name):',
  '    try: return m.version(name)',
  '    except Exception: return None',
  'facts = {"python": sys.version.split()[0], "executable": sys.executable, "imports": {}, "torch": None, "torch_cuda": None, "cuda_available": False, "device_count": 0, "verl": version("verl"), "verl_root": None, "vllm": version("vllm")}',
  'try:',
  '    import torch',
  '    facts.update(torch=torch.__version__, torch_cuda=torch.version.cuda, cuda_available=bool(torch.cuda.is_available()), device_count=int(torch.cuda.device_count()))',
  'except Exception: pass',
  'try:',
  '    import importlib.util',
  '    spec = importlib.util.find_spec("verl")',
  '    facts["verl_root"] = list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else None',
  'except Exception: pass',
  'for name in sys.argv[1:]:',
  '    try:',
  '        importlib.import_module(name)',
  '        facts["imports"][name] = None',
  '    except BaseException as error:',
  '        facts["imports"][name] = "%s: %s" % (type(error).__name__, str(error)[:300])',
  'print(json.dumps(facts))',
].join('\n')

function run(command: string, args: readonly string[], env?: Record<string, string>): { stdout: string } | { error: string } {
  // Importing the trainer pulls in torch, Ray and vLLM: minutes on a cold disk.
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: 300_000,
    ...(env ? { env: { ...process.env, ...env } } : {}),
  })
  if (result.error) return { error: `${command}: ${result.error.message}` }
  if (result.status !== 0)
    return { error: `${command} exited with ${String(result.status ?? result.signal)}: ${result.stderr.trim().slice(0, 300)}` }
  return { stdout: result.stdout }
}

export function parseNvidiaSmi(text: string): GpuFact[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [name = '', memory = '', driver = ''] = line.split(',').map((part) => part.trim())
      const memory_mib = Number.parseFloat(memory)
      if (!name || !Number.isFinite(memory_mib) || !driver)
        throw new ReleaseOpsError({ code: 'bad_reply', message: `unreadable nvidia-smi line: ${line}` })
      return { name, memory_mib, driver }
    })
}

/**
 * `imports`: the modules the trainer's entry point will import (`verlEntryImports`), imported by the
 * training interpreter itself with the run's environment (`env`), each failure with its error.
 */
export function probeHost(options: {
  python: string
  nvidiaSmi: string
  imports?: readonly string[]
  env?: Record<string, string>
}): HostFacts {
  const facts: HostFacts = { gpus: null, python: null }
  const smi = run(options.nvidiaSmi, ['--query-gpu=name,memory.total,driver_version', '--format=csv,noheader,nounits'])
  if ('error' in smi) facts.gpu_error = smi.error
  else {
    try {
      facts.gpus = parseNvidiaSmi(smi.stdout)
    } catch (error) {
      facts.gpu_error = (error as Error).message
    }
  }
  const python = run(options.python, ['-c', probeScript, ...(options.imports ?? [])], options.env)
  if ('error' in python) facts.python_error = python.error
  else {
    try {
      const parsed = JSON.parse(python.stdout.trim().split('\n').at(-1) ?? '') as PythonFacts
      facts.python = { ...parsed, verl_root: parsed.verl_root ? parsed.verl_root : null }
    } catch {
      facts.python_error = `${options.python} printed no probe JSON`
    }
  }
  return facts
}

/** The host gate over measured facts: GPU count, name, memory, driver; torch with CUDA; vLLM for RLOO. */
export function checkHost(facts: HostFacts, requirements: HostRequirements): CheckResult {
  const problems: string[] = []
  if (!facts.gpus) problems.push(`no GPU facts (${facts.gpu_error ?? 'nvidia-smi gave nothing'})`)
  else {
    if (facts.gpus.length < requirements.gpus) problems.push(`${facts.gpus.length} GPU(s), the run needs ${requirements.gpus}`)
    for (const [index, gpu] of facts.gpus.slice(0, requirements.gpus).entries()) {
      if (requirements.gpuName && !gpu.name.toLowerCase().includes(requirements.gpuName.toLowerCase()))
        problems.push(`GPU ${index} is ${gpu.name}, not ${requirements.gpuName}`)
      if (gpu.memory_mib < requirements.minGpuMemoryGib * 1024)
        problems.push(
          `GPU ${index} has ${(gpu.memory_mib / 1024).toFixed(1)} GiB, the run needs ${requirements.minGpuMemoryGib} GiB`,
        )
      if (requirements.minDriver && compareVersions(gpu.driver, requirements.minDriver) < 0)
        problems.push(`GPU ${index} driver ${gpu.driver} is older than ${requirements.minDriver}`)
    }
  }
  const python = facts.python
  if (!python) problems.push(`the training interpreter could not be probed (${facts.python_error ?? 'no output'})`)
  else {
    if (!python.torch) problems.push('torch is not importable')
    else if (!python.cuda_available) problems.push(`torch ${python.torch} sees no CUDA device`)
    else if (python.device_count < requirements.gpus)
      problems.push(`torch sees ${python.device_count} CUDA device(s), the run needs ${requirements.gpus}`)
    if (requirements.cuda && !(python.torch_cuda ?? '').startsWith(requirements.cuda))
      problems.push(`torch is built for CUDA ${String(python.torch_cuda)}, the run pins ${requirements.cuda}`)
    if (!python.verl) problems.push('verl is not installed in the training interpreter')
    for (const [name, error] of Object.entries(python.imports ?? {}))
      if (error !== null) problems.push(`the trainer imports ${name}, which fails: ${error}`)
    if (requirements.needVllm && !python.vllm) problems.push('vllm is not installed (the RLOO rollout needs it)')
    else if (requirements.needVllm && requirements.minVllm && compareVersions(python.vllm as string, requirements.minVllm) < 0)
      problems.push(`vllm ${python.vllm} is older than ${requirements.minVllm}`)
  }
  return {
    name: 'host',
    passed: problems.length === 0,
    detail: problems.length === 0 ? 'host gate passed' : problems.join('; '),
    facts: { ...facts, requirements },
  }
}
