/** @module agent: models, agents and the one agent loop. */
export type { Agent, AgentEpisode, AgentStart, AgentTurn, AgentTurnInput } from './agent.js'
export type {
  AgentEpisodeEnd,
  AgentEpisodeResult,
  AgentStepRecord,
  EpisodeFault,
  Trajectory,
  TurnRecord,
} from './agent-trajectory.js'
export {
  type ChatModel,
  type GenerateRequest,
  type GenerateResult,
  type ModelIdentity,
  type ModelMode,
  modelModes,
  type SamplingOptions,
  type TokenUsage,
} from './chat-model.js'
export { EndpointClient, type EndpointClientOptions } from './endpoint-client.js'
export { EndpointError, type Fault, isEndpointError } from './endpoint-error.js'
export { envTools, initialMessages } from './episode-prompt.js'
export { createGgufModel, type GgufModelOptions } from './gguf-model.js'
export { modelAgent } from './model-agent.js'
export { OpenAiCompatibleModel, type OpenAiCompatibleModelOptions } from './openai-compatible-model.js'
export { policyAgent } from './policy-agent.js'
export { defaultRetryPolicy, type RetryPolicy } from './retry-policy.js'
export { type RunEpisodeOptions, runEpisode } from './run-episode.js'
export { type FaultKind, type FaultPlan, faultKinds, faultSequence, randomFaults } from './scripted/fault-plan.js'
export { type MockOpenAiServer, type MockOpenAiServerOptions, startMockOpenAiServer } from './scripted/mock-openai-server.js'
export {
  ScriptedConversationError,
  ScriptedPolicyModel,
  type ScriptedPolicyModelOptions,
} from './scripted/scripted-policy-model.js'
export { qwen3TokenCounter, type TokenCounter } from './token-counter.js'
