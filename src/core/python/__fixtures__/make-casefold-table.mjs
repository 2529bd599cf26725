// Regenerates ../python-casefold-table.json (read by ../python-casefold-table.ts): the code points whose Python `str.casefold()` differs from
// JavaScript's `toLowerCase()` on that single character. Run from the repository root:
//   node src/core/python/__fixtures__/make-casefold-table.mjs
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

const python = process.env.RELEASEOPS_PYTHON ?? '.venv/bin/python'
const script = `
import json, sys, unicodedata
out = {}
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    folded = chr(cp).casefold()
    if folded != chr(cp):
        out[cp] = folded
json.dump({"unicode": unicodedata.unidata_version, "python": sys.version.split()[0], "map": out}, sys.stdout)
`
const { unicode, python: version, map } = JSON.parse(execFileSync(python, ['-c', script], { encoding: 'utf8', maxBuffer: 1 << 26 }))
const entries = []
for (let cp = 0; cp < 0x110000; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue
  const character = String.fromCodePoint(cp)
  const folded = map[cp] ?? character
  if (character.toLowerCase() !== folded) entries.push([cp, folded])
}
const exceptions = Object.fromEntries(
  entries.map(([cp, folded]) => [`U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, folded]),
)
const about = `Code points whose Python str.casefold() differs from JavaScript's toLowerCase() on that one character (Python ${version}, Unicode ${unicode}).`
// Written as biome formats it (2 spaces), so a regenerated table diffs clean.
writeFileSync('src/core/python/python-casefold-table.json', `${JSON.stringify({ about, exceptions }, null, 2)}\n`)
process.stdout.write(`${entries.length} exceptions\n`)
