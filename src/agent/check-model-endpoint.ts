/**
 * @module agent: the up-front check before a run talks to a model endpoint (issue 28 item 11): `GET
 * /models` must answer. An endpoint nobody listens on (connection refused, unknown host) fails here
 * with `endpoint_unreachable`, as a model the endpoint does not serve fails with `unknown_model`, rather
 * than after every episode has been tried and scored zero. A slow or erroring `/models` is left to the run.
 */
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { EndpointClient } from './endpoint-client.js'
import { EndpointError, isEndpointError } from './endpoint-error.js'

export async function checkModelEndpoint(client: EndpointClient, model: string): Promise<void> {
  let served: string[] | null
  try {
    served = await client.models()
  } catch (error) {
    if (!isEndpointError(error)) throw error
    if (error.fatal) throw error
    if (error.code === 'endpoint_unreachable') {
      throw new EndpointError({
        code: 'endpoint_unreachable',
        message: `${error.message}. Start the model server there, or point --base-url at one that runs.`,
        fatal: true,
        cause: error,
      })
    }
    served = null
  }
  if (served && served.length > 0 && !served.includes(model)) {
    throw new InvalidInputError({
      code: 'unknown_model',
      message: `${client.baseUrl} serves ${served.join(', ')}, not ${model}.`,
      issues: [],
    })
  }
}
