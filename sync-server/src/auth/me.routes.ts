import type { FastifyInstance } from 'fastify';
import { updateMeAttributesInputSchema } from '@platform/schema/me/me.zod';
import { requireSession } from '../plugins/session.ts';
import { currentUser, updateMeAttributes } from './me.service.ts';

export async function meRoutes(app: FastifyInstance) {
  app.get('/api/me', async (request) => currentUser(app.db, await requireSession(request)));

  app.post('/api/me/attributes', async (request) => {
    const session = await requireSession(request);
    const input = updateMeAttributesInputSchema.parse(request.body);
    await updateMeAttributes(app.db, session.user.id, input);
    return { ok: true };
  });
}
