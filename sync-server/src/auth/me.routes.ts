import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { updateMeAttributesInputSchema } from '@platform/schema/me/me.zod';
import { requireSession, sessionFirst } from '../plugins/session.ts';
import { currentUser, updateMeAttributes } from './me.service.ts';

export async function meRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/me', async (request) => currentUser(app.db, await requireSession(request)));

  api.post(
    '/api/me/attributes',
    { schema: { body: updateMeAttributesInputSchema }, preValidation: sessionFirst },
    async (request) => {
      const session = await requireSession(request);
      await updateMeAttributes(app.db, session.user.id, request.body);
      return { ok: true };
    },
  );
}
