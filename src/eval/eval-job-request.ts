/**
 * @module eval: what `POST /api/eval` accepts: a split (never a server file), policies or a model endpoint
 * (never an API key), how many rows (spread over the split's slices), and the unscored share a job may
 * have before it ends `degraded`.
 */
import { z } from 'zod'
import { modelModes } from '../agent/chat-model.js'
import { defaultMaxFailureShare } from './eval-job-verdict.js'

export const evalJobRequestSchema = z
  .strictObject({
    env_id: z.string().min(1).max(100).optional(),
    split: z.string().min(1).max(64).default('eval').describe('A split the env generates (never a file on the server).'),
    max_rows: z
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe("n rows spread over the split's slices (split, family, …), not its first n; default all."),
    policies: z.array(z.string().min(1).max(100)).min(1).max(16).optional().describe('Baseline policies (default: all).'),
    model: z
      .strictObject({
        name: z.string().min(1).max(200),
        base_url: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .describe('OpenAI-compatible endpoint, e.g. http://127.0.0.1:8001/v1.'),
        mode: z.enum(modelModes).default('native'),
        concurrency: z.int().min(1).max(64).default(4),
        max_tokens: z.int().min(1).max(32_768).optional(),
        temperature: z.number().min(0).max(2).optional(),
        max_turns: z.int().min(1).max(256).optional(),
        samples: z.int().min(1).max(16).default(1),
        enable_thinking: z.boolean().optional(),
      })
      .optional()
      .describe('Evaluate a model instead of policies (no API key is sent).'),
    max_failure_share: z
      .number()
      .min(0)
      .max(1)
      .default(defaultMaxFailureShare)
      .describe('Above this share of unscored episodes (endpoint or tool faults) the job ends `degraded`.'),
  })
  .refine((value) => value.model === undefined || value.policies === undefined, {
    message: 'Give policies or a model, not both.',
    path: ['model'],
  })

export type EvalJobRequest = z.output<typeof evalJobRequestSchema>
