/**
 * Decision 0064's table as a test: collapsed models and the reference ladder through the rollout gate.
 * Grading (`gate rollout --release`, qwen3.5 text over HTTP, two samples per prompt): the constant
 * train-majority answer with and without searches, the same with a little sampling, a random answer and the
 * one-search lexical baseline each fail with their reason; sampled references inside the band pass, one
 * that is the same on every sample fails for its missing learning signal, ones outside the band fail on the
 * rate. The Arena (`--env releaseops-v3`, the first rows of every eval split): approve-everything and the
 * other evidence-free strategies fail on every split with `no_evidence_use` and `unsafe_ships`, the readers
 * fail only for being above the band, and a sampled reader inside it passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { arenaGateModels, runArenaGate } from './gate-arena-models.js'
import { type GateModel, gradingGateModels, trainMajority } from './gate-calibration-models.js'
import { type GateFixture, gateFixture, policyEndpoint, runGate } from './gate-fixture.js'

let fixture: GateFixture
let models: GateModel[]
const servers: MockOpenAiServer[] = []

beforeAll(async () => {
  fixture = await gateFixture()
  models = gradingGateModels(fixture, await trainMajority(fixture))
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

describe('the grading gate on collapsed models and the reference ladder', () => {
  it('every collapsed model fails with its reason; the references fail or pass as the rule intends', {
    timeout: 300_000,
  }, async () => {
    const table: { model: string; kind: string; status: string; reasons: string[] }[] = []
    for (const model of models) {
      const server = await policyEndpoint({ fixture, create: model.create })
      servers.push(server)
      // One episode at a time: the random model's draws, and so its report, are the same on every run.
      const { report } = await runGate({ fixture, baseUrl: server.url, concurrency: 1 })
      table.push({
        model: model.name,
        kind: model.kind,
        status: report.status,
        reasons: report.reasons.map((reason) => reason.code),
      })
    }
    for (const [index, row] of table.entries()) {
      const model = models[index] as GateModel
      if (model.kind === 'degenerate') {
        expect(row.status, row.model).toBe('failed')
        expect(row.reasons, row.model).toEqual(expect.arrayContaining([...model.reasons]))
      } else expect(row.reasons, row.model).toEqual(model.reasons)
    }
    // Each of the new reasons is, for some collapsed model, the only thing that stops it.
    const alone = table.filter((row) => row.reasons.length === 1).map((row) => row.reasons[0])
    expect(alone).toEqual(expect.arrayContaining(['degenerate_answers', 'no_learning_signal']))
    expect(table.filter((row) => row.status === 'passed').map((row) => row.model)).toEqual([
      'reference 6%, sampled',
      'reference 15%, sampled',
      'reference 25%, sampled',
    ])
  })
})

describe('the Arena gate', () => {
  const wanted = [
    'approve everything (naive)',
    'inspect, then approve anyway',
    'slice-prior blind learner',
    'dissent-first-reader',
    'reference: the reader, sampled, ships on half the samples of 30% of episodes',
  ]
  for (const split of ['eval_seen', 'eval_unseen', 'eval'])
    it(`${split}: approve-everything and the blind strategies fail with their reasons, the sampled reader passes`, {
      timeout: 300_000,
    }, async () => {
      for (const model of arenaGateModels().filter((item) => wanted.includes(item.name))) {
        const report = await runArenaGate({ split, model, limit: 20 })
        const reasons = report.reasons.map((reason) => reason.code)
        if (model.kind === 'reference') expect(reasons, model.name).toEqual([])
        else expect(reasons, `${split} ${model.name}`).toEqual(expect.arrayContaining([...model.reasons]))
        if (model.name.startsWith('approve everything')) expect(report.status).toBe('failed')
      }
    })
})
