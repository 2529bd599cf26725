import { describe, expect, it } from 'vitest'
import { failedRunError, failureCause } from './failure-cause.js'

const offlineTraceback = [
  'Step 3/3 GRPO',
  'Command: python -u train_grpo.py --model-name Qwen/Qwen3-0.6B',
  'Traceback (most recent call last):',
  '  File "/app/python/train_grpo.py", line 130, in run',
  '    tokenizer = AutoTokenizer.from_pretrained(args.model_name)',
  '  File "/venv/lib/python3.11/site-packages/transformers/utils/hub.py", line 470, in cached_files',
  '    raise OSError(',
  "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files.",
  "Check your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.",
  'Training failed at 2026-01-01T00:00:00.000Z: exit code 1',
]

describe('failureCause', () => {
  it('is the exception line of a traceback, not its top', () => {
    expect(failureCause(offlineTraceback)).toBe(
      "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files.",
    )
  })

  it('takes the last traceback of a chain', () => {
    const chained = [
      'Traceback (most recent call last):',
      '  File "a.py", line 1, in <module>',
      'KeyError: 1',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "a.py", line 3, in <module>',
      'ValueError: the second one',
    ]
    expect(failureCause(chained)).toBe('ValueError: the second one')
  })

  it('without a traceback, is the last line the step wrote, never a supervisor line', () => {
    const lines = [
      'Step 2/3 warm-up',
      'warmup: loss 11.962 -> 11.249 in 9.6 s; held-out tool-call rate 0.00 at temperature 0.7 (tools none)',
      'warmup: the model does not emit tool calls reliably (0.00 < 0.50)',
      'Training failed at 2026-01-01T00:00:00.000Z: exit code 3',
      '',
    ]
    expect(failureCause(lines)).toBe('warmup: the model does not emit tool calls reliably (0.00 < 0.50)')
    expect(failureCause(['Starting smoke training at x (run y)', 'Training failed at x: exit code 1'])).toBeNull()
  })
})

describe('failedRunError', () => {
  it('names the failed step of a run of several, and carries the cause', () => {
    expect(
      failedRunError({ step: 'warm-up', steps: 3, code: 3, signal: null, afterError: null, tail: offlineTraceback.slice(2) }),
    ).toEqual({
      code: 'trainer_failed',
      message: 'Step warm-up exited with code 3.',
      cause: expect.stringMatching(/^OSError: We couldn't connect/),
    })
    expect(failedRunError({ step: 'GRPO', steps: 1, code: null, signal: 'SIGKILL', afterError: null, tail: [] })).toEqual({
      code: 'trainer_failed',
      message: 'The trainer was killed by SIGKILL.',
    })
  })

  it('a step whose check in the server failed after it exited 0 says which and why', () => {
    const afterError = new Error('probe.json: expected object')
    expect(failedRunError({ step: 'learning probe', steps: 4, code: 0, signal: null, afterError, tail: [] })).toEqual({
      code: 'trainer_failed',
      message: 'Step learning probe: probe.json: expected object',
      cause: 'probe.json: expected object',
    })
  })
})
