import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { toFieldErrors } from '@platform/schema/auth/auth.zod';
import {
  Conflict,
  DomainError,
  Forbidden,
  NotFound,
  RuleBroken,
  ServiceUnavailable,
  TooManyRequests,
  Unauthenticated,
  ValidationFailed,
} from './domain-errors.ts';
import { isDatabaseUnavailable, isUnstorableText } from '../db/postgres-errors.ts';

type DomainErrorClass = abstract new (...args: never[]) => DomainError;

const statusOf = new Map<DomainErrorClass, number>([
  [ValidationFailed, 400],
  [Unauthenticated, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [RuleBroken, 422],
  [TooManyRequests, 429],
  [ServiceUnavailable, 503],
]);

/** A feature's own error (LoginFailed extends Unauthenticated) keeps its parent's status. */
function domainStatusOf(error: DomainError): number {
  let proto: object | null = Object.getPrototypeOf(error);
  while (proto && proto !== DomainError.prototype) {
    const status = statusOf.get(proto.constructor as DomainErrorClass);
    if (status !== undefined) return status;
    proto = Object.getPrototypeOf(proto);
  }
  return 400;
}

/** The one place errors become HTTP answers. No answer carries a driver's or a 5xx's message. */
export function httpStatusOf(error: unknown): number {
  if (error instanceof ZodError) return 400;
  if (error instanceof DomainError) return domainStatusOf(error);
  if (isUnstorableText(error)) return 400;
  if (isDatabaseUnavailable(error)) return 503;
  const status = (error as FastifyError | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/** How long a client should wait before trying again after a 503 (an outage, a restart). */
export const RETRY_AFTER_SECONDS = 5;

/** 503 with a retry hint: the request was fine, the server cannot serve it right now. */
export function sendRetryLater(reply: FastifyReply, message: string) {
  return reply
    .code(503)
    .header('retry-after', String(RETRY_AFTER_SECONDS))
    .send({ error: 'Service Unavailable', message });
}

export const unstorableTextMessage =
  'The text contains a character that cannot be stored (such as NUL, \\u0000).';

export const unavailableMessage = 'The service is unavailable for a moment. Try again shortly.';

export const httpMapPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown, request, reply) => {
      // A route whose forms read their own shape says what its refused input becomes.
      const invalidInput = request.routeOptions.config.invalidInput;
      const error =
        thrown instanceof ZodError && invalidInput ? invalidInput(thrown, request) : thrown;
      const status = httpStatusOf(error);
      if (status === 503) {
        request.log.warn({ err: error }, 'service unavailable');
        // A feature's own outage says what is out of reach; anything else, the general words.
        return sendRetryLater(
          reply,
          error instanceof ServiceUnavailable ? error.message : unavailableMessage,
        );
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply
          .code(status)
          .send({ error: 'Internal Server Error', message: 'Something went wrong.' });
      }
      // Schema validation (FST_ERR_VALIDATION, see route-contracts.ts) and services' own parses.
      if (error instanceof ZodError) {
        return (
          reply
            .code(400)
            // `errors` is the `{field, message}` list forms show next to their fields.
            .send({
              error: 'Bad Request',
              message: 'The request is invalid.',
              issues: error.issues,
              errors: toFieldErrors(error),
            })
        );
      }
      if (error instanceof DomainError) {
        return reply.code(status).send(error.toBody());
      }
      if (isUnstorableText(error)) {
        // Never the driver's words: they carry the query and every value bound to it.
        return reply.code(400).send({ error: 'Bad Request', message: unstorableTextMessage });
      }
      // Fastify's own refusals (a body too large, a media type it does not read) say what they
      // are; anything else that arrives here is answered without its message.
      const fastifyError = error as FastifyError;
      const ownWords =
        typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_');
      return reply.code(status).send({
        error: ownWords ? fastifyError.code : 'Bad Request',
        message: ownWords ? fastifyError.message : 'The request cannot be handled.',
      });
    });
    app.setNotFoundHandler((request, reply) => {
      reply
        .code(404)
        .send({
          error: 'NotFound',
          message: `No route for ${request.method} ${request.url.split('?')[0]}`,
        });
    });
  },
  { name: 'http-map' },
);
