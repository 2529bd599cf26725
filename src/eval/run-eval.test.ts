/** The eval run's pure steps: the task order, how many threads start, and the shared chunk queue. */
import { describe, expect, it } from 'vitest'
import type { EpisodeRecord } from './episode-record.js'
import { episodeTasks, evalQueue, evalThreadCount } from './run-eval.js'

describe('episodeTasks', () => {
  it('orders tasks policy-major, then by row, indexed in that order', () => {
    expect(episodeTasks(2, ['a', 'b'])).toEqual([
      { index: 0, rowIndex: 0, policy: 'a' },
      { index: 1, rowIndex: 1, policy: 'a' },
      { index: 2, rowIndex: 0, policy: 'b' },
      { index: 3, rowIndex: 1, policy: 'b' },
    ])
  })
})

describe('evalThreadCount', () => {
  it('starts as many threads as asked, at least one, and never more than there are chunks', () => {
    expect(evalThreadCount({ tasks: 1000, chunkSize: 250, workers: undefined })).toBe(1)
    expect(evalThreadCount({ tasks: 1000, chunkSize: 250, workers: 3.7 })).toBe(3)
    expect(evalThreadCount({ tasks: 1000, chunkSize: 250, workers: 8 })).toBe(4)
    expect(evalThreadCount({ tasks: 0, chunkSize: 250, workers: 8 })).toBe(1)
    expect(evalThreadCount({ tasks: 10, chunkSize: 250, workers: 0 })).toBe(1)
  })
})

describe('evalQueue', () => {
  it('hands out chunks in order until empty and stores records at their index, reporting progress', () => {
    const tasks = episodeTasks(5, ['p'])
    const progress: [number, number][] = []
    const queue = evalQueue(tasks, 2, (done, total) => progress.push([done, total]))
    const chunks = [queue.take(), queue.take(), queue.take(), queue.take()]
    expect(chunks.map((chunk) => chunk.map((task) => task.index))).toEqual([[0, 1], [2, 3], [4], []])
    const record = (index: number) => ({ index }) as EpisodeRecord
    queue.store([record(4)])
    queue.store([record(1), record(0)])
    expect(queue.records[4]?.index).toBe(4)
    expect(queue.records[0]?.index).toBe(0)
    expect(queue.records[2]).toBeUndefined()
    expect(progress).toEqual([
      [1, 5],
      [3, 5],
    ])
  })
})
