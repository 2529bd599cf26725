/** @module release/xlsx: the two XML helpers the package readers need: an attribute's value and unescaping. */

/** The value of attribute `name` in the start tag `tag` (undefined when absent). */
export function xmlAttribute(tag: string, name: string): string | undefined {
  const at = tag.indexOf(` ${name}="`)
  if (at < 0) return undefined
  const start = at + name.length + 3
  const end = tag.indexOf('"', start)
  return end < 0 ? undefined : tag.slice(start, end)
}

const entity = /&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g
const named: Readonly<Record<string, string>> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }

/** XML character and entity references → text (one pass, so `&amp;lt;` stays `&lt;`). */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(entity, (_, name: string) => {
    if (name[0] !== '#') return named[name] as string
    return String.fromCodePoint(name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)))
  })
}
