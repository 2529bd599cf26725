/**
 * @module train/verl: the installed VeRL's version and patches. The version comes from the package's own
 * `version/version` file; the patches from a declared list (`releaseops-verl-patches-v1`: per patch, the
 * run kinds it is required for and, per patched file under the `verl` package, the sha256 of the patched
 * file and of the unpatched original), so an unpatched, half-patched or locally edited tree is told apart.
 * SFT on Qwen3.5 cannot run without the two patches the original shipped (system-first chat template,
 * prefix-diff multi-turn dataset); the list must declare them.
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { z } from 'zod'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256File } from '../../io/sha256.js'
import { minimumVerlVersion, type VerlRunKind, verlRunKinds } from './verl-run-settings.js'

const verlPatchListFormat = 'releaseops-verl-patches-v1'

/** Patches a run of each kind cannot do without, whatever the list says (ids the list must declare). */
const requiredPatchIds: Record<VerlRunKind, readonly string[]> = {
  sft: [],
  rloo: [],
}

/** The original team's SFT patches: `TrajectorySFTDataset` runs on stock VeRL, so they are never checked
 * (they also did not work: the patched tree failed VeRL's sanity check on every row). */
const obsoletePatchIds: readonly string[] = ['chat-template-system-first', 'multiturn-sft-prefix-diff']

const sha256 = z.string().regex(/^[0-9a-f]{64}$/)

const verlPatchListSchema = z.strictObject({
  format: z.literal(verlPatchListFormat),
  verl_version: z.string().min(1),
  patches: z.array(
    z.strictObject({
      id: z.string().min(1),
      description: z.string().optional(),
      required_for: z.array(z.enum(verlRunKinds)).min(1),
      files: z.array(z.strictObject({ path: z.string().min(1), sha256, unpatched_sha256: sha256.optional() })).min(1),
    }),
  ),
})

export type VerlPatchList = z.output<typeof verlPatchListSchema>

export interface CheckResult {
  name: string
  passed: boolean
  detail: string
  facts?: Record<string, unknown>
}

/** No patch declared (`verl preflight` without `--patch-list`): the version is still checked. */
export function noPatches(): VerlPatchList {
  return { format: verlPatchListFormat, verl_version: minimumVerlVersion, patches: [] }
}

export function loadVerlPatchList(path: string): VerlPatchList {
  const file = readJsonFile(path, { kind: 'VeRL patch list', strict: true })
  const parsed = verlPatchListSchema.safeParse(file.value)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) => ({
    code: 'invalid_patch_list',
    path: `${path}:${issue.path.join('.')}`,
    message: issue.message,
  }))
  throw new InvalidInputError({
    code: 'invalid_patch_list',
    path,
    message: `${path} is not a ${verlPatchListFormat} list: ${issues[0]?.message}.`,
    issues,
  })
}

/** Numeric comparison of dotted versions ("0.10.0" > "0.9.0"); a suffix such as ".dev0" sorts before the release. */
export function compareVersions(left: string, right: string): number {
  const parts = (version: string) => version.split(/[.+-]/).map((part) => (/^\d+$/.test(part) ? Number(part) : -1))
  const a = parts(left)
  const b = parts(right)
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0)
    if (difference !== 0) return Math.sign(difference)
  }
  return 0
}

function readVerlVersion(verlRoot: string): string | null {
  const path = join(verlRoot, 'version', 'version')
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : null
}

export function checkVerlVersion(options: {
  verlRoot: string
  list: VerlPatchList | null
  metadataVersion?: string | null
}): CheckResult {
  const version = readVerlVersion(options.verlRoot)
  const facts = {
    verl_root: options.verlRoot,
    version,
    minimum: minimumVerlVersion,
    patch_list_version: options.list?.verl_version ?? null,
  }
  if (version === null)
    return {
      name: 'verl_version',
      passed: false,
      detail: `no VeRL installation at ${options.verlRoot} (version/version is missing)`,
      facts,
    }
  if (compareVersions(version, minimumVerlVersion) < 0)
    return { name: 'verl_version', passed: false, detail: `VeRL ${version} is older than ${minimumVerlVersion}`, facts }
  if (options.list && options.list.verl_version !== version)
    return {
      name: 'verl_version',
      passed: false,
      detail: `the patch list is for VeRL ${options.list.verl_version}, VeRL ${version} is installed`,
      facts,
    }
  if (options.metadataVersion && options.metadataVersion !== version)
    return {
      name: 'verl_version',
      passed: false,
      detail: `the interpreter imports VeRL ${options.metadataVersion}, but ${options.verlRoot} is ${version}`,
      facts,
    }
  return { name: 'verl_version', passed: true, detail: `VeRL ${version}`, facts }
}

export function checkVerlPatches(options: { verlRoot: string; list: VerlPatchList; kind: VerlRunKind }): CheckResult {
  const problems: string[] = []
  const states: Record<string, string> = {}
  const declared = new Set(options.list.patches.map((patch) => patch.id))
  for (const id of requiredPatchIds[options.kind]) if (!declared.has(id)) problems.push(`${id}: not declared in the patch list`)
  const root = resolve(options.verlRoot)
  const skipped: string[] = []
  for (const patch of options.list.patches) {
    const required = patch.required_for.includes(options.kind) || requiredPatchIds[options.kind].includes(patch.id)
    if (!required) continue
    if (obsoletePatchIds.includes(patch.id)) {
      skipped.push(patch.id)
      continue
    }
    for (const file of patch.files) {
      const path = resolve(root, file.path)
      const inside = relative(root, path)
      let state: string
      if (inside.startsWith('..') || isAbsolute(inside)) state = 'path_escape'
      else if (!existsSync(path)) state = 'missing'
      else {
        const digest = sha256File(path)
        state = digest === file.sha256 ? 'patched' : digest === file.unpatched_sha256 ? 'unpatched' : 'unknown_content'
      }
      states[`${patch.id}:${file.path}`] = state
      if (state !== 'patched') problems.push(`${patch.id}: ${file.path} is ${state.replace('_', ' ')}`)
    }
  }
  return {
    name: 'verl_patches',
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `${Object.keys(states).length} patched files verified${skipped.length > 0 ? `; not needed on stock VeRL: ${skipped.join(', ')}` : ''}`
        : problems.join('; '),
    facts: { files: states, ...(skipped.length > 0 ? { not_needed: skipped } : {}) },
  }
}
