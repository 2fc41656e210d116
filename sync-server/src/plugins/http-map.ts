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

/** The one place errors become HTTP answers. A 5xx never leaks its message. */
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

export const unavailableMessage = 'The service is unavailable for a moment. Try again shortly.';

export const httpMapPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown, request, reply) => {
      // A route whose forms read their own shape says what its refused input becomes.
      const invalidInput = request.routeOptions.config.invalidInput;
      const error = thrown instanceof ZodError && invalidInput ? invalidInput(thrown, request) : thrown;
      const status = httpStatusOf(error);
      if (status === 503) {
        request.log.warn({ err: error }, 'service unavailable');
        return sendRetryLater(reply, unavailableMessage);
      }
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(status).send({ error: 'Internal Server Error', message: 'Something went wrong.' });
      }
      // Schema validation (FST_ERR_VALIDATION, see route-contracts.ts) and services' own parses.
      if (error instanceof ZodError) {
        return reply
          .code(400)
          // `errors` is the `{field, message}` list forms show next to their fields.
          .send({ error: 'Bad Request', message: 'The request is invalid.', issues: error.issues, errors: toFieldErrors(error) });
      }
      if (error instanceof DomainError) {
        return reply.code(status).send(error.toBody());
      }
      const fastifyError = error as FastifyError;
      return reply.code(status).send({ error: fastifyError.code ?? 'Error', message: fastifyError.message });
    });
    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send({ error: 'NotFound', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
    });
  },
  { name: 'http-map' },
);
