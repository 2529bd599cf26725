/**
 * @module release/trajectories/think: deterministic placeholder thoughts for pipeline tests and demos
 * (`--think-source mock`). They name no category, id or level, so they cannot leak an answer; a release
 * made with them says so in its report, and `--formal` refuses them.
 */
import type { Trajectory, TrajectoryCall } from '../build-trajectory.js'

function toolThought(call: TrajectoryCall): string {
  switch (call.name) {
    case 'search_categories':
      return call.arguments.scope === undefined
        ? 'The catalog names alone do not settle this field, so I will search the categories by its field and table names.'
        : 'No top-level group is obviously right, so I will try a search limited to one group of the catalog.'
    case 'get_category_details':
      return 'The first two search candidates look close; I will read their definitions before deciding.'
    case 'get_category_examples':
      return 'I will check example data items of the leading candidate to confirm it fits this field.'
    default:
      return 'I will first look at the top-level groups of the catalog to choose where to search.'
  }
}

function finalThought(trajectory: Trajectory): string {
  switch (trajectory.trajectoryClass) {
    case 'direct':
      return 'The field and table names point to one catalog entry directly, and its sensitivity follows from the kind of data it holds.'
    case 'no_result':
      return 'The scoped search did not surface a fitting category, so I choose from the full catalog instead.'
    default:
      return 'The lookup confirms the category, so I can give it together with its sensitivity level.'
  }
}

export function mockThoughts(trajectory: Trajectory): { tool: string[]; final: string } {
  return { tool: trajectory.calls.map(toolThought), final: finalThought(trajectory) }
}
