export {
  defineTool,
  type ParsedArguments,
  parseToolArguments,
  type ToolDefinition,
  toOpenAiTool,
  toolParametersSchema,
} from './define-tool.js'
