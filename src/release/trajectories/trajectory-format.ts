/**
 * @module release/trajectories: the fixed names of the native-tool trajectory line: format ids of each
 * artifact, the row's stage, where thoughts come from and what to do with an over-long one.
 */
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'

/** The trajectory (chat) format every row is in: one constant shared with RL and gates. */
export const trajectoryFormat = nativeToolTrajectoryFormat
/** `export_report.json`'s format: train/val/test Parquet of native-tool trajectories. */
export const trajectoryReleaseFormat = 'verl_tool_trajectory_messages_parquet'
/** `collect_report.json`'s format: think-free JSONL shards for an external reasoning writer. */
export const trajectoryCollectFormat = 'verl_tool_trajectory_think_collect_v1'
/** `stats` report format. */
export const trajectoryStatsFormat = 'verl_tool_trajectory_stats_v1'
/** Every row's `stage`. */
export const trajectoryStage = 'tool_trajectory'

/** Where a release's thoughts came from. `none`: thinking disabled (empty reasoning, `enable_thinking` false). */
export const thinkSourceKinds = ['mock', 'file', 'none'] as const
export type ThinkSourceKind = (typeof thinkSourceKinds)[number]

/** What an over-long thought does: fail the export, be cut to the limit, or be dropped (empty reasoning). */
export const thinkOverLimitPolicies = ['error', 'truncate', 'discard'] as const
export type ThinkOverLimitPolicy = (typeof thinkOverLimitPolicies)[number]

/** The original's default thought budget (approximate tokens, see `thinkTokens`). */
export const defaultMaxThinkTokens = 128
/** The original's default shard size for collect. */
export const defaultShardSize = 64
