/** @module core/registry: named policies per env id (`--policy naive` on `releaseops-v1`). */
import type { Observation } from '../env/env-api.js'
import { ReleaseOpsError } from '../errors/release-ops-error.js'
import { UnknownNameError } from '../errors/unknown-name-error.js'
import type { Policy } from '../policy/policy.js'

export interface PolicyRegistration {
  name: string
  description: string
  /** Reads hidden state; reports show it as the ceiling, not as a baseline. */
  privileged?: boolean
  create(): Policy<Observation>
}

export class PolicyRegistry {
  private readonly byEnv = new Map<string, Map<string, PolicyRegistration>>()

  register(envId: string, registration: PolicyRegistration): void {
    const policies = this.byEnv.get(envId) ?? new Map<string, PolicyRegistration>()
    if (policies.has(registration.name)) {
      throw new ReleaseOpsError({
        code: 'duplicate_policy',
        message: `Policy "${registration.name}" is already registered for ${envId}.`,
      })
    }
    policies.set(registration.name, registration)
    this.byEnv.set(envId, policies)
  }

  names(envId: string): string[] {
    return [...(this.byEnv.get(envId)?.keys() ?? [])]
  }

  get(envId: string, name: string): PolicyRegistration {
    const registration = this.byEnv.get(envId)?.get(name)
    if (!registration) throw new UnknownNameError({ kind: 'policy', name, known: this.names(envId) })
    return registration
  }

  create(envId: string, name: string): Policy<Observation> {
    return this.get(envId, name).create()
  }
}
