/**
 * @module server/http: errors raised before any route runs — Node's HTTP parser (malformed request 400,
 * headers or request line over the size limit 431, request timeout 408) and Fastify's router (a URL that
 * does not decode 400, a path parameter over its length 414) — answered with the same
 * `{error: {code, message}}` body as every other error (decision 0047).
 */
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { writeRawError } from './connection-guard.js'
import { HttpError, httpErrorBody } from './http-errors.js'

/** Node's `clientError` as a coded error (the request never became a Fastify request). */
function clientErrorOf(error: NodeJS.ErrnoException): HttpError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new HttpError({
      status: 431,
      code: 'headers_too_large',
      message: 'The request line and headers are larger than the limit (16 KiB).',
    })
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new HttpError({ status: 408, code: 'request_timeout', message: 'The request was not received in time.' })
  }
  return new HttpError({
    status: 400,
    code: 'malformed_request',
    message: `Malformed HTTP request${error.code ? ` (${error.code})` : ''}.`,
  })
}

/** Fastify's `clientErrorHandler`: writes the coded reply on the raw socket and closes it. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  writeRawError(socket, clientErrorOf(error))
}

/** Fastify's `frameworkErrors`: router failures before a route is found. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const coded =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new HttpError({ status: 414, code: 'uri_too_long', message: 'A path segment is longer than the limit (100 characters).' })
      : error.code === 'FST_ERR_BAD_URL'
        ? new HttpError({ status: 400, code: 'bad_url', message: 'The URL does not decode (a malformed %-escape).' })
        : new HttpError({ status: 400, code: 'bad_request', message: error.message })
  reply.code(coded.status).type('application/json; charset=utf-8').send(httpErrorBody(coded))
}
