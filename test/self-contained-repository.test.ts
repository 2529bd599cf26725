/**
 * The repository stands alone (docs/architecture.md §4): no tracked file cites a document kept outside
 * it, every relative markdown link and every quoted repo path names a file that is here, and every
 * `docs/….md` a comment names exists. The checkers are proved on planted samples first, so a pass means
 * something.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  findBrokenLinks,
  findMissingDocs,
  findMissingQuotedPaths,
  findOutsideReferences,
  headingAnchors,
  type ReferenceProblem,
  repositoryIndex,
} from './support/repository-references.js'

const root = resolve(import.meta.dirname, '..')
// The checker and this test spell the forbidden names out; they are the only files allowed to.
const checkerFiles = new Set(['test/self-contained-repository.test.ts', 'test/support/repository-references.ts'])

function trackedFiles(): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  return listing.split('\0').filter((file) => file !== '')
}

const files = trackedFiles()
const texts = new Map<string, string | null>()
function textOf(file: string): string | null {
  if (!texts.has(file)) {
    let bytes: Buffer
    try {
      bytes = readFileSync(resolve(root, file))
    } catch {
      texts.set(file, null) // tracked but deleted in the work tree
      return null
    }
    texts.set(file, bytes.subarray(0, 8000).includes(0) ? null : bytes.toString('utf8'))
  }
  return texts.get(file) ?? null
}
const index = repositoryIndex(files, (file) => textOf(file) ?? '')

const show = (problems: readonly ReferenceProblem[]) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.reference} — ${problem.reason}`)

const sample = repositoryIndex(
  ['README.md', 'docs/guide.md', 'src/envs/releaseops/shared/tools.ts', 'src/envs/releaseops/v2/README.md'],
  (file) => (file === 'docs/guide.md' ? '# Guide\n\n## 2. The wire, in short\n' : ''),
)

describe('the reference checkers, on planted samples', () => {
  it('flag outside documents by name and by path, and let our own shared folder through', () => {
    const text = [
      'See DESIGN.md §1 and `releaseops-original.md` §12.',
      'As protocols.md §A.2 documents (docs/wire-reference.md is ours).',
      'From ../shared/seeds/x.txt and /work/shared/specs/y.md.',
      "import { tools } from '../shared/tools.js'",
    ].join('\n')
    const problems = findOutsideReferences('src/envs/releaseops/v2/a.ts', text, sample)
    expect(problems.map((problem) => [problem.line, problem.reference])).toEqual([
      [1, 'DESIGN.md'],
      [1, 'releaseops-original.md'],
      [2, 'protocols.md'],
      [3, '/work/'],
      [3, 'shared/seeds'],
      [3, 'shared/specs'],
    ])
    // `../shared/` from a file where it names no folder of ours is flagged even without a known subfolder.
    expect(findOutsideReferences('test/a.ts', "from '../shared/notes.txt'", sample).map((p) => p.reason)).toEqual([
      'no folder shared in the repository',
    ])
    expect(findOutsideReferences('README.md', "'../shared/x'", sample)[0]?.reason).toBe('a path outside the repository')
  })

  it('flag links to missing files, links out of the tree and missing headings; accept the rest', () => {
    const markdown = [
      '[guide](docs/guide.md), [part](docs/guide.md#2-the-wire-in-short), [site](https://example.org/x.md)',
      '[gone](test/missing.test.ts) and [bad anchor](docs/guide.md#3-nothing)',
      '[escape](../outside.md) `[not a link](nowhere.md)`',
      '```',
      '[in a fence](fenced.md)',
      '```',
      '[ref]: src/nothing.ts',
    ].join('\n')
    expect(show(findBrokenLinks('README.md', markdown, sample))).toEqual([
      'README.md:2 test/missing.test.ts — no file test/missing.test.ts in the repository',
      'README.md:2 docs/guide.md#3-nothing — no heading #3-nothing in docs/guide.md',
      'README.md:3 ../outside.md — leads outside the repository',
      'README.md:7 src/nothing.ts — no file src/nothing.ts in the repository',
    ])
  })

  it('flag quoted repo paths and docs names that name nothing', () => {
    const markdown = '`src/envs/releaseops/shared/tools.ts`, `src/chat/templates/official-templates.test.ts`, `src/*/README.md`'
    expect(findMissingQuotedPaths('README.md', markdown, sample).map((p) => p.reference)).toEqual([
      'src/chat/templates/official-templates.test.ts',
    ])
    expect(findMissingDocs('a.ts', '// see docs/guide.md §2 and docs/arch.md §1', sample).map((p) => p.reference)).toEqual([
      'docs/arch.md',
    ])
  })

  it('computes GitHub heading anchors', () => {
    expect([
      ...headingAnchors('# 1. Layers\n## `releaseops-v1` — the original\n## Notes\n## Notes\n```\n# not a heading\n```'),
    ]).toEqual(['1-layers', 'releaseops-v1--the-original', 'notes', 'notes-1'])
  })
})

describe('the repository', () => {
  const textFiles = files.filter((file) => !checkerFiles.has(file) && textOf(file) !== null)
  const markdownFiles = textFiles.filter((file) => file.endsWith('.md'))

  it('is read from git: every text file is checked', () => {
    expect(markdownFiles).toContain('README.md')
    expect(textFiles.length).toBeGreaterThan(500)
  })

  it('cites no document outside itself', () => {
    expect(show(textFiles.flatMap((file) => findOutsideReferences(file, textOf(file) as string, index)))).toEqual([])
  })

  it('names only docs that exist', () => {
    expect(show(textFiles.flatMap((file) => findMissingDocs(file, textOf(file) as string, index)))).toEqual([])
  })

  it('links only to files and headings that exist', () => {
    expect(show(markdownFiles.flatMap((file) => findBrokenLinks(file, textOf(file) as string, index)))).toEqual([])
  })

  it('quotes only repo paths that exist (decision records excepted: they tell history)', () => {
    const current = markdownFiles.filter((file) => !file.startsWith('docs/decisions/'))
    expect(show(current.flatMap((file) => findMissingQuotedPaths(file, textOf(file) as string, index)))).toEqual([])
  })
})
