import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { familyAccountActions } from '@platform/schema/auth/auth.zod';
import {
  attachChildRequestSchema,
  createChildrenRequestSchema,
  guardiansRequestSchema,
  validateChildRequestSchema,
} from '@platform/schema/families/families.zod';
import { requireSession } from '../plugins/session.ts';
import { addressSubject, enforce } from '../rate-limits/rate-limits.ts';
import { attachChild, createChildren, validateChildren } from './children.service.ts';
import { familyActorOf } from './families.access.ts';
import { FamilyFormInvalid, parseFamilyInput } from './families.errors.ts';
import { validateChildLimit } from './families.limits.ts';
import type { FamilyDeps } from './families.service.ts';
import { runGuardiansAction } from './guardians.service.ts';

/** spec §7 POST /api/guardians: one endpoint, the operation named by `action`. */
export async function familiesRoutes(app: FastifyInstance) {
  app.post('/api/guardians', async (request, reply) => {
    // Signed in first: a caller without a session learns nothing about the body's shape.
    const actor = familyActorOf(await requireSession(request));
    return answerFormErrors(reply, () =>
      runGuardiansAction(
        depsOf(app, request),
        actor,
        parseFamilyInput(guardiansRequestSchema, request.body),
      ),
    );
  });
}

/**
 * spec §7 POST /api/auth/create-account, the family actions (signup.routes.ts hands them over).
 * validate-child is public — the signup page asks before the account exists — and limited per
 * address; the others need a session.
 */
export async function runFamilyAccountAction(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  action: (typeof familyAccountActions)[number],
) {
  if (action === 'validate-child')
    return answerFormErrors(reply, async () => {
      const input = parseFamilyInput(validateChildRequestSchema, request.body);
      const cost = 1 + input.children.length;
      await enforce(app.db, [{ rule: validateChildLimit, subject: addressSubject(request.ip), cost }]);
      return validateChildren(input);
    });
  const actor = familyActorOf(await requireSession(request));
  const deps = depsOf(app, request);
  return answerFormErrors(reply, async () => {
    if (action === 'create-children')
      return createChildren(
        deps,
        actor,
        parseFamilyInput(createChildrenRequestSchema, request.body),
      );
    return attachChild(deps, actor, parseFamilyInput(attachChildRequestSchema, request.body));
  });
}

const depsOf = (app: FastifyInstance, request: FastifyRequest): FamilyDeps => ({
  db: app.db,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
  log: request.log,
});

/** The families API answers invalid forms in its own shape: `{ message, errors }` (spec §8). */
async function answerFormErrors<T>(reply: FastifyReply, run: () => Promise<T>) {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FamilyFormInvalid) return reply.code(400).send(error.toBody());
    throw error;
  }
}
