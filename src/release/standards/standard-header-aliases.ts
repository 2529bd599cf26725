/**
 * @module release/standards: the headers standards bodies write, in Chinese and English (pure). A header
 * is compared by its parts: the whole text, each line of a bilingual `一级分类\nLevel 1`, each side of
 * `编码 / Code`, and the text in and outside brackets (`Description (EN)`), each folded (NFKC, lower case,
 * whitespace collapsed, a trailing `:` or `*` dropped). A whole-text match beats a part match.
 */

export type StandardRole =
  | 'code'
  | 'description'
  | 'examples'
  | 'suggested_level'
  | 'grading_level'
  | 'grading_name'
  | 'grading_description'

const fold = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s:：*＊]+$/, '')
    .trim()

/**
 * Where a header splits into parts: a line break, a slash or bar, or a space between Chinese and Latin
 * text (a bilingual header whose line break became a space).
 */
const languageBreak = /\r?\n|\s+\/\s+|\/|｜|\||(?<=[\p{Script=Han}）)])\s+(?=[A-Za-z])|(?<=[A-Za-z.)])\s+(?=\p{Script=Han})/u

/** The folded parts of a header; the first is the whole text. */
export function headerParts(header: string): string[] {
  const whole = fold(header)
  const parts = new Set<string>([whole])
  for (const line of header.split(languageBreak)) {
    const text = fold(line)
    if (!text) continue
    parts.add(text)
    const bracket = /^(.*?)\s*\(([^()]*)\)\s*(.*)$/.exec(text)
    if (bracket) for (const side of [`${bracket[1]} ${bracket[3]}`, bracket[2] as string]) if (fold(side)) parts.add(fold(side))
  }
  return [...parts].filter(Boolean)
}

const chineseLevel = /^第?([一二三四五六七八九1-9])级(?:分类|类目|类别|目录)?(?:名称)?$/
const ordinals = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth']
const englishLevel = [
  /^(?:(?:category|class|classification) )?(?:level|tier|lvl|l)[ _-]?([1-9])(?: (?:category|class|classification|name|category name))?$/,
  /^([1-9])(?:st|nd|rd|th)[ -]level(?: (?:category|class|classification|name))?$/,
  /^(?:category|class|classification) ([1-9])$/,
]

/** The depth (1…9) a level column names (`一级分类`, `Level 1`, `Category level 2`, `Third-level class`); 0 if none. */
export function levelColumnDepth(header: string): number {
  for (const part of headerParts(header)) {
    const chinese = chineseLevel.exec(part)?.[1]
    if (chinese) return /\d/.test(chinese) ? Number(chinese) : '一二三四五六七八九'.indexOf(chinese) + 1
    for (const pattern of englishLevel) {
      const digit = pattern.exec(part)?.[1]
      if (digit) return Number(digit)
    }
    const ordinal = /^(\w+)[ -]level(?: (?:category|class|classification|name))?$/.exec(part)?.[1]
    if (ordinal && ordinals.includes(ordinal)) return ordinals.indexOf(ordinal) + 1
  }
  return 0
}

/** Exact (folded) names of each role; a code column is also any header ending in 编码/代码/编号 or "code". */
const roleAliases: Readonly<Record<StandardRole, readonly string[]>> = {
  code: ['编码', '代码', '编号', '分类编码', '类目编码', 'code', 'category code', 'classification code', 'leaf code'],
  description: [
    '说明',
    '描述',
    '分类说明',
    '分类描述',
    '类目说明',
    '定义',
    '释义',
    '内容说明',
    'description',
    'definition',
    'desc',
    'explanation',
    'category description',
    'scope',
  ],
  examples: [
    '示例',
    '数据示例',
    '示例数据',
    '举例',
    '样例',
    '典型数据',
    'examples',
    'example',
    'sample data',
    'samples',
    'data examples',
    'typical data',
    'e.g.',
  ],
  suggested_level: [
    '建议级别',
    '级别',
    '分级',
    '最低级别',
    '建议分级',
    '参考级别',
    '默认级别',
    '数据级别',
    'suggested level',
    'level',
    'recommended level',
    'default level',
    'minimum level',
    'data level',
    'sensitivity level',
    'sensitivity',
    'suggested grade',
  ],
  grading_level: [
    '级别',
    '分级',
    '等级',
    '数据级别',
    '安全级别',
    '敏感级别',
    '级别代码',
    'level',
    'grade',
    'level code',
    'sensitivity level',
    'security level',
    'data level',
    'tier',
  ],
  grading_name: ['名称', '级别名称', '等级名称', '分级名称', 'name', 'level name', 'label', 'title'],
  grading_description: [
    '说明',
    '描述',
    '定义',
    '分级说明',
    '级别说明',
    '判定标准',
    'description',
    'definition',
    'criteria',
    'meaning',
    'explanation',
  ],
}

const codeSuffix = /(编码|代码|编号)$|(^| )code$/

/** How `header` matches a list of folded names (or a test): 2 by its whole text, 1 by a part, 0 not at all. */
export function aliasScore(header: string, names: readonly string[], test?: (part: string) => boolean): 0 | 1 | 2 {
  const parts = headerParts(header)
  const matches = (part: string) => names.includes(part) || (test?.(part) ?? false)
  if (parts[0] !== undefined && matches(parts[0])) return 2
  return parts.slice(1).some(matches) ? 1 : 0
}

/** How `header` names `role`: 2 by its whole text, 1 by a part, 0 not at all. */
export function roleMatch(header: string, role: StandardRole): 0 | 1 | 2 {
  return aliasScore(header, roleAliases[role], role === 'code' ? (part) => codeSuffix.test(part) : undefined)
}

/** Words that make a header look like a standard's column (`Description (CN)`, `Level notes`, `编码2`). */
const lookalike: readonly [RegExp, string][] = [
  [/descr|definition|说明|描述|定义/, 'description'],
  [/exampl|sample|示例|样例|举例/, 'examples'],
  [/level|grade|级别|分级|等级|级/, 'level'],
  [/code|编码|代码|编号/, 'code'],
  [/name|名称/, 'name'],
]

/** The kind of column a header looks like, when it looks like one. */
export function looksLike(header: string): string | undefined {
  const text = headerParts(header).join(' ')
  return lookalike.find(([pattern]) => pattern.test(text))?.[1]
}
