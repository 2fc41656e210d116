import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  exportIdParamsSchema,
  exportListSchema,
  exportStatusSchema,
} from '@platform/schema/imports/export.zod';
import { requireSession } from '../plugins/session.ts';
import {
  createExport,
  downloadExport,
  exportStatus,
  listExports,
  requireExporter,
} from './exports.service.ts';
import { personalData } from './personal-data.service.ts';

/** The organisation's export and a person's own data (issue 17, decision 0072; export.zod.ts). */
export async function exportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/exports',
    { schema: { response: { 201: exportStatusSchema } } },
    async (request, reply) => {
      const exporter = await requireExporter(request);
      reply.code(201);
      return createExport(app.db, app.jobs, exporter);
    },
  );

  api.get('/api/exports', { schema: { response: { 200: exportListSchema } } }, async (request) =>
    listExports(app.db, await requireExporter(request)),
  );

  api.get(
    '/api/exports/:id',
    { schema: { params: exportIdParamsSchema, response: { 200: exportStatusSchema } } },
    async (request) => exportStatus(app.db, await requireExporter(request), request.params.id),
  );

  api.get(
    '/api/exports/:id/download',
    { schema: { params: exportIdParamsSchema } },
    async (request, reply) => {
      const archive = await downloadExport(
        app.db,
        await requireExporter(request),
        request.params.id,
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(archive.bytes))
        .header('content-disposition', `attachment; filename="${archive.fileName}"`)
        .header('cache-control', 'no-store')
        .send(archive.stream);
    },
  );

  // A person's own data, whoever they are signed in as (the account the session acts for).
  api.get('/api/me/data-export', async (request, reply) => {
    const data = await personalData(app.db, await requireSession(request));
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="my-data.json"')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(data, null, 2));
  });
}
