/**
 * Finds what a repository file cites that the repository does not hold: the design and research
 * documents kept outside it (by name or by path) and relative links or repo paths that resolve to nothing.
 * Pure functions over text; the caller supplies the tracked-file set, so a planted sample can be checked.
 */
import { posix } from 'node:path'

export interface ReferenceProblem {
  file: string
  line: number
  reference: string
  reason: string
}

/** What the checks need to know about the repository. */
export interface RepositoryIndex {
  /** Tracked files, repo-relative with `/` separators. */
  files: ReadonlySet<string>
  /** Every directory that holds a tracked file (derived from `files`). */
  directories: ReadonlySet<string>
  /** Markdown file → the GitHub anchors of its headings. */
  anchors: (file: string) => ReadonlySet<string>
}

/** Documents that live outside the repository: the code must state what it needs from them in `docs/`. */
const outsideNames: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /(?<![\w-])DESIGN\.md\b/g, reason: 'the design document outside the repository (see docs/architecture.md)' },
  {
    pattern: /(?<![\w-])releaseops-original(?:\.md)?\b/g,
    reason: 'a research note outside the repository (see docs/original-arena.md)',
  },
  { pattern: /\bprotocols\.md\b/g, reason: 'a research note outside the repository (see docs/wire-reference.md)' },
  { pattern: /(?<![\w-])grading-original(?:\.md)?\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])grading-release\.md\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])releaseops-arena\.md\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])style-anchors(?:\.md)?\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])trl-offline\.md\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])dependencies\.md\b/g, reason: 'a research note outside the repository' },
  { pattern: /(?<![\w-])server-runbook\.txt\b/g, reason: 'a seed file outside the repository (see docs/release-runbook.md)' },
  { pattern: /(?<![\w-])releaseops-arena-brief\b/g, reason: 'a seed file outside the repository' },
  { pattern: /(?<![\w./-])\/work\//g, reason: 'an absolute path on a development machine' },
  { pattern: /(?<![\w-])shared\/(?:specs|seeds|reference|hooks)\b/g, reason: 'a path into the shared research folder' },
]

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length

/** `a/b/../c` → `a/c`; null when the path climbs above the repository root. */
export function resolveInRepository(fromFile: string, target: string): string | null {
  const joined = target.startsWith('/') ? target.slice(1) : posix.join(posix.dirname(fromFile), target)
  const normal = posix.normalize(joined)
  if (normal === '..' || normal.startsWith('../')) return null
  return normal === '.' ? '' : normal.replace(/\/$/, '')
}

const exists = (index: RepositoryIndex, path: string) => path === '' || index.files.has(path) || index.directories.has(path)

/** Names and paths of documents outside the repository, and `../…/shared/` paths that leave it or lead nowhere. */
export function findOutsideReferences(file: string, text: string, index: RepositoryIndex): ReferenceProblem[] {
  const problems: ReferenceProblem[] = []
  for (const { pattern, reason } of outsideNames)
    for (const match of text.matchAll(pattern))
      problems.push({ file, line: lineOf(text, match.index), reference: match[0], reason })
  // `../shared/x` is fine where it names a folder of ours (src/envs/releaseops/shared); not where it leaves.
  for (const match of text.matchAll(/(?<![\w.])((?:\.\.\/)+shared)\//g)) {
    const resolved = resolveInRepository(file, match[1] as string)
    if (resolved === null || !index.directories.has(resolved))
      problems.push({
        file,
        line: lineOf(text, match.index),
        reference: `${match[1]}/`,
        reason: resolved === null ? 'a path outside the repository' : `no folder ${resolved} in the repository`,
      })
  }
  return problems
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = (heading[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** Inline `[text](target)` and reference-style `[label]: target` links, with code spans and fences left out. */
function markdownLinks(markdown: string): { target: string; index: number }[] {
  const blanked = markdown
    .replace(/^(\s*)(```|~~~)[\s\S]*?^\s*\2/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length))
  const links: { target: string; index: number }[] = []
  for (const match of blanked.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
    links.push({ target: match[1] as string, index: match.index })
  for (const match of blanked.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm))
    links.push({ target: match[1] as string, index: match.index })
  return links
}

/** Relative links in a markdown file that name no file or folder of the repository (or no heading there). */
export function findBrokenLinks(file: string, markdown: string, index: RepositoryIndex): ReferenceProblem[] {
  const problems: ReferenceProblem[] = []
  for (const { target, index: at } of markdownLinks(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:, …
    const [rawPath = '', anchor] = target.split('#')
    const path = rawPath === '' ? file : resolveInRepository(file, decodeURIComponent(rawPath.split('?')[0] as string))
    const line = lineOf(markdown, at)
    if (path === null) problems.push({ file, line, reference: target, reason: 'leads outside the repository' })
    else if (!exists(index, path)) problems.push({ file, line, reference: target, reason: `no file ${path} in the repository` })
    else if (anchor && path.endsWith('.md') && index.files.has(path) && !index.anchors(path).has(anchor.toLowerCase()))
      problems.push({ file, line, reference: target, reason: `no heading #${anchor} in ${path}` })
  }
  return problems
}

const topLevelFolders = ['src', 'test', 'docs', 'scripts', 'python', 'bench', 'web', 'deploy', 'notebooks']
const quotedRepoPath = new RegExp(`\`((?:${topLevelFolders.join('|')})/[^\`\\s]*)\``, 'g')

/**
 * Repo paths quoted in code spans (`src/…`, `test/…`, …) that name nothing. Paths with placeholders
 * (`*`, `<…>`, `{…}`, `…`, `$`) are patterns, not files, and are skipped.
 */
export function findMissingQuotedPaths(file: string, markdown: string, index: RepositoryIndex): ReferenceProblem[] {
  const problems: ReferenceProblem[] = []
  for (const match of markdown.matchAll(quotedRepoPath)) {
    const quoted = match[1] as string
    if (/[*<>{}$…|]/.test(quoted)) continue
    const path = quoted.replace(/[#:].*$/, '').replace(/\/$/, '')
    if (!exists(index, path))
      problems.push({ file, line: lineOf(markdown, match.index), reference: quoted, reason: `no file ${path} in the repository` })
  }
  return problems
}

/** `docs/….md` named anywhere (comments, strings, READMEs) must be a file of the repository. */
export function findMissingDocs(file: string, text: string, index: RepositoryIndex): ReferenceProblem[] {
  const problems: ReferenceProblem[] = []
  for (const match of text.matchAll(/(?<![\w./-])docs\/[\w./-]+?\.md\b/g))
    if (!index.files.has(match[0]))
      problems.push({
        file,
        line: lineOf(text, match.index),
        reference: match[0],
        reason: `no file ${match[0]} in the repository`,
      })
  return problems
}

export function repositoryIndex(files: readonly string[], read: (file: string) => string): RepositoryIndex {
  const directories = new Set<string>()
  for (const file of files) {
    const parts = file.split('/')
    for (let end = 1; end < parts.length; end++) directories.add(parts.slice(0, end).join('/'))
  }
  const cache = new Map<string, Set<string>>()
  return {
    files: new Set(files),
    directories,
    anchors: (file) => {
      let anchors = cache.get(file)
      if (!anchors) cache.set(file, (anchors = headingAnchors(read(file))))
      return anchors
    },
  }
}
