import { ReleaseOpsError } from './release-ops-error.js'

/** A registry lookup (env id, policy name, format id, split) found nothing: code `unknown_<kind>`. */
export class UnknownNameError extends ReleaseOpsError<`unknown_${string}`> {
  constructor(options: { kind: string; name: string; known: readonly string[] }) {
    super({
      code: `unknown_${options.kind}`,
      message: `Unknown ${options.kind.replaceAll('_', ' ')} "${options.name}". Known: ${options.known.join(', ') || '(none)'}.`,
      details: { name: options.name, known: [...options.known] },
    })
    this.name = 'UnknownNameError'
  }
}
