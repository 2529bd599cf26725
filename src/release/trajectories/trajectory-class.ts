/**
 * @module release/trajectories: which of the four trajectory classes a record gets: the original's rule,
 * `int(sha256("tool-trajectory:" + source_id).hexdigest(), 16) % 4`, over (direct, single_tool,
 * multi_tool, no_result): the same number Python computes (`trajectoryClassByBigInt` spells the rule out).
 */
import { hash } from 'node:crypto'

export const trajectoryClasses = ['direct', 'single_tool', 'multi_tool', 'no_result'] as const
export type TrajectoryClass = (typeof trajectoryClasses)[number]

/** Tool calls each class makes before the answer. */
export const toolCallsPerClass: Readonly<Record<TrajectoryClass, number>> = {
  direct: 0,
  single_tool: 1,
  multi_tool: 3,
  no_result: 2,
}

/** The rule as written: the digest as one BigInt, mod 4. */
export function trajectoryClassByBigInt(sourceId: string): TrajectoryClass {
  const digest = hash('sha256', `tool-trajectory:${sourceId}`, 'hex')
  return trajectoryClasses[Number(BigInt(`0x${digest}`) % 4n)] as TrajectoryClass
}

/** The same number without the BigInt: 16 ≡ 0 (mod 4), so only the last hex digit matters (validate runs this per row). */
export function trajectoryClassOf(sourceId: string): TrajectoryClass {
  const digest = hash('sha256', `tool-trajectory:${sourceId}`, 'hex')
  return trajectoryClasses[Number.parseInt(digest.charAt(63), 16) % 4] as TrajectoryClass
}
