import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createImportRequestSchema,
  createImportResponseSchema,
  IMPORT_CHUNK_BYTES,
  importChunkParamsSchema,
  importChunkResponseSchema,
  importIdParamsSchema,
  importListSchema,
  importStatusSchema,
} from '@platform/schema/imports/import.zod';
import { ValidationFailed } from '../plugins/domain-errors.ts';
import { sessionFirst } from '../plugins/session.ts';
import {
  createImport,
  importStatus,
  listImports,
  receiveChunk,
  requireImporter,
  startImport,
} from './imports.service.ts';

/**
 * CSV imports (issue 17, decision 0071):
 *   POST /api/imports                    { kind, fileName, totalBytes } → { id, chunkBytes }
 *   PUT  /api/imports/:id/chunks/:seq    the file's bytes (application/octet-stream), in order
 *   POST /api/imports/:id/start          every byte arrived: the job is asked → status
 *   GET  /api/imports/:id                progress, bad rows, result
 *   GET  /api/imports                    the organisation's latest ten
 */
export async function importRoutes(app: FastifyInstance) {
  // A chunk is the file's bytes as they are; read whole (at most one chunk) for this plugin only.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: IMPORT_CHUNK_BYTES.local },
    (_request, body, done) => done(null, body),
  );
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/imports',
    {
      schema: { body: createImportRequestSchema, response: { 201: createImportResponseSchema } },
      preValidation: sessionFirst,
    },
    async (request, reply) => {
      const importer = await requireImporter(request);
      reply.code(201);
      return createImport(app.database, importer, request.body);
    },
  );

  api.put(
    '/api/imports/:id/chunks/:seq',
    {
      schema: { params: importChunkParamsSchema, response: { 200: importChunkResponseSchema } },
      bodyLimit: IMPORT_CHUNK_BYTES.local,
      preValidation: sessionFirst,
    },
    async (request) => {
      const importer = await requireImporter(request);
      // The file's bytes only: a body read as text or JSON is not what was sent.
      if (!Buffer.isBuffer(request.body))
        throw new ValidationFailed('Send the file’s bytes as application/octet-stream.');
      return receiveChunk(app.db, importer, request.params.id, request.params.seq, request.body);
    },
  );

  api.post(
    '/api/imports/:id/start',
    {
      schema: { params: importIdParamsSchema, response: { 200: importStatusSchema } },
      preValidation: sessionFirst,
    },
    async (request) =>
      startImport(app.db, app.jobs, await requireImporter(request), request.params.id),
  );

  api.get(
    '/api/imports/:id',
    {
      schema: { params: importIdParamsSchema, response: { 200: importStatusSchema } },
      preValidation: sessionFirst,
    },
    async (request) => importStatus(app.db, await requireImporter(request), request.params.id),
  );

  api.get('/api/imports', { schema: { response: { 200: importListSchema } } }, async (request) =>
    listImports(app.db, await requireImporter(request)),
  );
}
