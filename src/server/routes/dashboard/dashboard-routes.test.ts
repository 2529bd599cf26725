/** The dashboard routes' pure steps: a page of dataset rows, an env's policies, and a loaded file by name. */
import { describe, expect, it } from 'vitest'
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { PolicyRegistry } from '../../../core/registry/policy-registry.js'
import { HttpError } from '../../http/http-errors.js'
import { dashboardFile, type StaticFile } from './dashboard-route-context.js'
import { envPolicies } from './env-policies-route.js'
import { datasetRowsPage } from './env-rows-route.js'

const rows: DatasetRow[] = [0, 1, 2].map((seed) => ({ seed, split: 'train', prompt: `p${seed}`, family: 'f' }))
const dataset: EnvDataset = {
  splits: ['train', 'eval'],
  rows: (split) => (split === 'train' ? rows : []),
  toResetParams: (row) => ({ seed: row.seed, options: { family: row.family } }),
  serializeRow: (row) => JSON.stringify(row),
  groupBy: [],
}

describe('datasetRowsPage', () => {
  it('pages the first split by default, without prompts, each row with its index and reset', () => {
    expect(datasetRowsPage('env-v1', dataset, { offset: 1, limit: 1 })).toEqual({
      env_id: 'env-v1',
      splits: ['train', 'eval'],
      split: 'train',
      total: 3,
      rows: [{ index: 1, seed: 1, split: 'train', family: 'f', reset: { seed: 1, options: { family: 'f' } } }],
    })
  })

  it('pages a named split, and says nothing for an env without a dataset', () => {
    expect(datasetRowsPage('env-v1', dataset, { split: 'eval', offset: 0, limit: 10 })).toMatchObject({ split: 'eval', total: 0 })
    expect(datasetRowsPage('bare-v1', undefined, { offset: 0, limit: 10 })).toEqual({
      env_id: 'bare-v1',
      splits: [],
      split: null,
      total: 0,
      rows: [],
    })
  })
})

describe('envPolicies', () => {
  it('lists the policies in registration order, privileged ones marked', () => {
    const policies = new PolicyRegistry()
    policies.register('env-v1', { name: 'naive', description: 'Ships.', create: () => ({}) as never })
    policies.register('env-v1', { name: 'oracle', description: 'Reads truth.', privileged: true, create: () => ({}) as never })
    expect(envPolicies(policies, 'env-v1')).toEqual({
      env_id: 'env-v1',
      policies: [
        { name: 'naive', description: 'Ships.', privileged: false },
        { name: 'oracle', description: 'Reads truth.', privileged: true },
      ],
    })
  })
})

describe('dashboardFile', () => {
  it('gives a loaded file and refuses any other name with a 404', () => {
    const file: StaticFile = { body: Buffer.from('<html>'), type: 'text/html; charset=utf-8' }
    const files = new Map([['index.html', file]])
    expect(dashboardFile(files, 'index.html')).toBe(file)
    let caught: unknown
    try {
      dashboardFile(files, '../package.json')
    } catch (error) {
      caught = error
    }
    expect(HttpError.isInstance(caught) && [caught.status, caught.code]).toEqual([404, 'not_found'])
  })
})
