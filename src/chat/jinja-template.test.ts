import { describe, expect, it } from 'vitest'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { JinjaTemplate } from './jinja-template.js'

describe('JinjaTemplate', () => {
  it("strips as Python does, and answers Python's error for strip on a non-string as a template error", () => {
    expect(new JinjaTemplate('t', "{{ x.lstrip('\\n') }}|").render({ x: '\n\n a ' })).toBe(' a |')
    let caught: unknown
    try {
      new JinjaTemplate('t', '{{ x.strip() }}').render({ x: 3 })
    } catch (error) {
      caught = error
    }
    expect(ReleaseOpsError.isInstance(caught) && caught.toJSON()).toEqual({
      code: 'template_error',
      message: "The t chat template failed: 'number' object has no attribute 'strip'",
    })
  })
})
