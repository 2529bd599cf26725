/** @module eval: the run facts every block of a summary carries (env, dataset and its hash, rows, …). */

/** Adds `facts` to each block's `run`, after what the block already says of its run. */
export function addRunFacts(summary: Record<string, unknown>, facts: Record<string, unknown>): void {
  for (const block of Object.values(summary)) {
    Object.assign(block as object, { run: { ...(block as { run?: object }).run, ...facts } })
  }
}
