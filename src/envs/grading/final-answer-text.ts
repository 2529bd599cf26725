/**
 * @module envs/grading: which text of a model's final turn is its answer (the answer contract, README
 * "Final answer contract"). The same function, line for line, is `final_answer_text` in
 * `python/releaseops_verl/reward.py`, which VeRL's reward calls; the parity corpus
 * (`python/releaseops_verl/tests/answer_contract_corpus.json`) holds both to the same verdict on every case.
 *
 * The text is one assistant turn's own tokens as decoded (or a whole decoded multi-turn response, cut to
 * its last assistant turn, the generation prompt's prefill dropped); the think block is dropped (everything up to the first `</think>`; a block
 * that is opened and never closed leaves nothing), then trailing end-of-turn markers and surrounding
 * whitespace (Python's `str.strip`). Nothing else is removed: a fence, a second object, trailing prose or
 * tool-call markup stays in the text and makes it fail the strict parse.
 */
import { pythonStrip } from '../../core/python/python-text.js'

/** Names the rule in reports and in the Python package (`ANSWER_CONTRACT`); bump it when the rule changes. */
export const gradingAnswerContract = 'releaseops-grading-answer-v1'

const endMarkers = ['<|im_end|>', '<|endoftext|>'] as const
const assistantMarker = '<|im_start|>assistant\n'
const toolResponseEnd = '</tool_response>'

/** The reply after its think block (Python `split_reasoning`). */
export function dropThinkBlock(text: string, openThink = false): string {
  const closeAt = text.indexOf('</think>')
  if (closeAt === -1) {
    const openAt = text.indexOf('<think>')
    if (openThink || (openAt !== -1 && pythonStrip(text.slice(0, openAt)) === '')) return ''
    return text
  }
  return pythonStrip(text.slice(closeAt + '</think>'.length), 'lstrip', '\n')
}

const withoutPrefill = (text: string, prefill: string) =>
  prefill && text.startsWith(prefill) ? text.slice(prefill.length) : text

/**
 * The last assistant turn of a decoded multi-turn response, the generation prompt's prefill dropped (the
 * response as given when it holds one turn's own tokens).
 */
function lastTurn(response: string, prefill: string): string {
  const marker = response.lastIndexOf(assistantMarker)
  if (marker !== -1) return withoutPrefill(response.slice(marker + assistantMarker.length), prefill)
  const end = response.lastIndexOf(toolResponseEnd)
  if (end === -1) return response
  const after = response.slice(end + toolResponseEnd.length)
  let rest = after
  for (const token of ['<|im_end|>', '\n', '<|im_start|>']) if (rest.startsWith(token)) rest = rest.slice(token.length)
  return rest.startsWith('assistant\n') ? withoutPrefill(rest.slice('assistant\n'.length), prefill) : after
}

/**
 * The answer text of a final turn (Python `final_answer_text`). `openThink`: the generation prompt opened a
 * think block; `prefill`: what it wrote after `<|im_start|>assistant\n` (only read in a multi-turn response).
 */
export function finalAnswerText(response: string, options: { openThink?: boolean; prefill?: string } = {}): string {
  let text = dropThinkBlock(lastTurn(response, options.prefill ?? ''), options.openThink ?? false)
  let changed = true
  while (changed) {
    changed = false
    const stripped = pythonStrip(text, 'rstrip')
    for (const end of endMarkers) {
      if (stripped.endsWith(end)) {
        text = stripped.slice(0, -end.length)
        changed = true
      }
    }
  }
  return pythonStrip(text)
}
