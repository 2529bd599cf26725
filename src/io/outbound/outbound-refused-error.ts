/** @module io/outbound: a request the outbound policy does not send (or a redirect it does not follow). */
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'

export type OutboundRefusal =
  | 'endpoint_not_allowed'
  | 'endpoint_scheme_refused'
  | 'endpoint_unresolved'
  | 'endpoint_invalid_url'
  | 'endpoint_redirect_refused'
  | 'invalid_allow_endpoint'

export class OutboundRefusedError extends ReleaseOpsError {
  /** The code, typed: a layer above may answer with it as its own. */
  readonly refusal: OutboundRefusal

  constructor(options: { code: OutboundRefusal; message: string; details?: Record<string, unknown> }) {
    super(options)
    this.name = 'OutboundRefusedError'
    this.refusal = options.code
  }
}
