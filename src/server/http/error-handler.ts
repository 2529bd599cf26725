/**
 * @module server/http: the one place errors become replies. Fastify's own errors (validation, body
 * limit, media type, bad JSON) are converted to our coded errors first, so every failure has the same
 * body shape; `/mcp` routes answer JSON-RPC errors with HTTP 200, as OpenEnv's do.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { UnknownNameError } from '../../core/errors/unknown-name-error.js'
import { jsonRpcError, jsonRpcErrors } from '../mcp/mcp-dispatcher.js'
import { describeIssues } from '../wire/validation-issues.js'
import { HttpError, httpErrorBody, httpErrorHeaders, httpStatusOf } from './http-errors.js'

interface FastifyValidationEntry {
  keyword: string
  instancePath: string
  message?: string
  params?: { keys?: string[] }
}

function validationIssues(error: FastifyError): InputIssue[] {
  const context = (error as { validationContext?: string }).validationContext
  const prefix = context && context !== 'body' ? [context] : []
  const issues: InputIssue[] = []
  for (const entry of (error.validation ?? []) as FastifyValidationEntry[]) {
    const path = [...prefix, ...entry.instancePath.split('/').filter(Boolean)]
    if (entry.keyword === 'unrecognized_keys') {
      for (const key of entry.params?.keys ?? []) {
        issues.push({ code: 'unrecognized_key', path: [...path, key].join('.'), message: 'Extra inputs are not permitted.' })
      }
    } else {
      issues.push({ code: entry.keyword, path: path.join('.'), message: entry.message ?? 'Invalid value.' })
    }
  }
  return issues
}

/** Fastify's errors as our coded ones. */
export function toCodedError(error: FastifyError | Error): unknown {
  if (ReleaseOpsError.isInstance(error)) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const issues = validationIssues(fastifyError)
    return new InvalidInputError({ code: 'validation_error', message: describeIssues(issues), issues })
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError({ status: 413, code: 'payload_too_large', message: 'Request body is larger than the limit.' })
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError({
        status: 415,
        code: 'unsupported_media_type',
        message: 'Send JSON (Content-Type: application/json).',
      })
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError({ status: 400, code: 'invalid_content_length', message: fastifyError.message })
  }
  const status = fastifyError.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return new HttpError({ status, code: 'bad_request', message: fastifyError.message })
  }
  return error
}

/** JSON bodies: empty means absent; malformed JSON is a coded 400 naming the position. */
export function installJsonParser(app: FastifyInstance): void {
  // JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch (error) {
      done(new HttpError({ status: 400, code: 'invalid_json', message: `Invalid JSON: ${(error as Error).message}` }), undefined)
    }
  })
}

/** Refusals of the request itself (Host, Origin, token): plain HTTP errors even on JSON-RPC routes. */
const requestGuardCodes = new Set([
  'invalid_host',
  'host_not_allowed',
  'origin_not_allowed',
  'unauthorized',
  'token_not_configured',
])
const codeOf = (error: unknown) => (ReleaseOpsError.isInstance(error) ? error.code : '')

export function installErrorHandlers(app: FastifyInstance, options: { envIds: readonly string[] }): void {
  app.setErrorHandler((raw: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = toCodedError(raw)
    const status = httpStatusOf(error)
    if (status >= 500) request.log.error(raw)
    if (request.routeOptions.config?.jsonRpc && !requestGuardCodes.has(codeOf(error))) {
      const code =
        ReleaseOpsError.isInstance(error) && error.code === 'invalid_json' ? jsonRpcErrors.parse : jsonRpcErrors.invalidRequest
      const message = ReleaseOpsError.isInstance(error) ? error.message : 'Invalid request.'
      return reply.code(200).send(jsonRpcError(null, code, code === jsonRpcErrors.parse ? `Parse error: ${message}` : message))
    }
    reply.headers(httpErrorHeaders(error))
    return reply.code(status).send(httpErrorBody(error))
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    const envMatch = /^\/envs\/([^/]+)/.exec(path)
    const envId = envMatch?.[1] === undefined ? undefined : decodeURIComponent(envMatch[1])
    const error =
      envId !== undefined && !options.envIds.includes(envId)
        ? new UnknownNameError({ kind: 'env', name: envId, known: options.envIds })
        : new HttpError({
            status: 404,
            code: 'not_found',
            message: `No route ${request.method} ${path}. GET / lists every route.`,
          })
    return reply.code(404).send(httpErrorBody(error))
  })
}
