import { describe, expect, it } from 'vitest'
import { launchScript } from './run-verl-preflight.js'

describe('launchScript', () => {
  const checked_at = '2026-01-02T03:04:05.000Z'

  it('runs the command under set -e and names the later steps of the plan as comments', () => {
    const plan = [
      { name: 'sft', command: 'run sft', description: '' },
      { name: 'merge', command: 'run merge', description: '' },
      { name: 'gate', command: 'run gate', description: '' },
    ] as never
    expect(launchScript({ checked_at, command: 'cd /r && env python -m verl', plan })).toBe(
      '#!/bin/sh\n# Written by releaseops verl preflight (2026-01-02T03:04:05.000Z); see launch_manifest.json.\n' +
        'set -e\ncd /r && env python -m verl\n# then merge: run merge\n# then gate: run gate\n',
    )
  })

  it('has no comments after the command without a plan', () => {
    expect(launchScript({ checked_at, command: 'x' }).endsWith('set -e\nx\n')).toBe(true)
  })
})
