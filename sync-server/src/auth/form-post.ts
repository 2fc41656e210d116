import type { FastifyRequest } from 'fastify';

/** A browser's plain HTML form post (as opposed to fetch with JSON). */
export const isFormPost = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('application/x-www-form-urlencoded');
