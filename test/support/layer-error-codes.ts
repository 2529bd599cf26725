/** Each layer's error-code list (decision 0058), by layer name: what the error-code tests check against. */
import { agentErrorCodes } from '../../src/agent/agent-error-codes.js'
import { chatErrorCodes } from '../../src/chat/chat-error-codes.js'
import { cliErrorCodes } from '../../src/cli/cli-error-codes.js'
import { clientErrorCodes } from '../../src/client/client-error-codes.js'
import { coreErrorCodes } from '../../src/core/errors/core-error-codes.js'
import { envsErrorCodes } from '../../src/envs/envs-error-codes.js'
import { evalErrorCodes } from '../../src/eval/eval-error-codes.js'
import { ioErrorCodes } from '../../src/io/io-error-codes.js'
import { releaseErrorCodes } from '../../src/release/release-error-codes.js'
import { serverErrorCodes } from '../../src/server/server-error-codes.js'
import { trainErrorCodes } from '../../src/train/train-error-codes.js'

export const layerErrorCodes: Record<string, readonly string[]> = {
  agent: agentErrorCodes,
  chat: chatErrorCodes,
  cli: cliErrorCodes,
  client: clientErrorCodes,
  core: coreErrorCodes,
  envs: envsErrorCodes,
  eval: evalErrorCodes,
  io: ioErrorCodes,
  release: releaseErrorCodes,
  server: serverErrorCodes,
  train: trainErrorCodes,
}
