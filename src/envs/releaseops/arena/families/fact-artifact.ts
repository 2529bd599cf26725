/**
 * @module envs/releaseops/arena/families: an artifact that shows one fact. Its text is one of two, by the
 * fact's value; each is a fixed string, a pool picked from by the visible draw, or a template of the draw.
 */
import type { FactKey } from '../facts.js'
import { type ArtifactDraw, type ArtifactKind, type ArtifactTemplate, pick } from '../family-spec.js'

export type ArtifactText = string | readonly string[] | ((draw: ArtifactDraw) => string)

export interface FactTexts {
  whenTrue: ArtifactText
  whenFalse: ArtifactText
}

function render(text: ArtifactText, draw: ArtifactDraw): string {
  if (typeof text === 'string') return text
  return typeof text === 'function' ? text(draw) : pick(text, draw)
}

export function factArtifact(slot: string, kind: ArtifactKind, fact: FactKey, texts: FactTexts): ArtifactTemplate {
  return {
    slot,
    kind,
    reveals: [fact],
    text: (facts, draw) => render(facts[fact] ? texts.whenTrue : texts.whenFalse, draw),
  }
}
