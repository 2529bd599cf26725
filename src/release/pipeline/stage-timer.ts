/** @module release/pipeline: each stage's time and row count, as the line reports them. */

export type StageRecorder = (stage: string, seconds: number, rows: number) => void

/** Runs `run` as a stage: its time and the rows its value stands for go to `record`. */
export function stageTimer(record: StageRecorder) {
  return async <T>(stage: string, rows: (value: T) => number, run: () => T | Promise<T>): Promise<T> => {
    const started = performance.now()
    const value = await run()
    record(stage, (performance.now() - started) / 1000, rows(value))
    return value
  }
}
