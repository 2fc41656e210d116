import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  familyAccountActions,
  type CreateAccountRequest,
} from '@platform/schema/auth/create-account.zod';
import { guardiansRequestSchema } from '@platform/schema/families/families.zod';
import { requireSession, sessionFirst } from '../plugins/session.ts';
import { addressSubject, enforce } from '../rate-limits/rate-limits.ts';
import { attachChild, createChildren, validateChildren } from './children.service.ts';
import { familyActorOf } from './families.access.ts';
import { familyFormInvalid } from './families.errors.ts';
import { validateChildLimit } from './families.limits.ts';
import type { FamilyDeps } from './families.service.ts';
import { runGuardiansAction } from './guardians.service.ts';

/** spec §7 POST /api/guardians: one endpoint, the operation named by `action`. */
export async function familiesRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/guardians',
    {
      schema: { body: guardiansRequestSchema },
      // Signed in first: a caller without a session learns nothing about the body's shape.
      preValidation: sessionFirst,
      // The families API answers invalid forms in its own shape: `{ message, errors }` (spec §8).
      config: { invalidInput: familyFormInvalid },
    },
    async (request) => {
      const actor = familyActorOf(await requireSession(request));
      return runGuardiansAction(depsOf(app, request), actor, request.body);
    },
  );
}

type FamilyAccountAction = (typeof familyAccountActions)[number];
type FamilyAccountRequest = Extract<CreateAccountRequest, { action: FamilyAccountAction }>;

export const isFamilyAccountAction = (action: unknown): action is FamilyAccountAction =>
  familyAccountActions.includes(action as FamilyAccountAction);

/** validate-child is public — the signup page asks before the account exists; the others are not. */
export const familyActionNeedsSession = (action: unknown) =>
  isFamilyAccountAction(action) && action !== 'validate-child';

/**
 * spec §7 POST /api/auth/create-account, the family actions (signup.routes.ts hands them over,
 * validated; invalid ones answer `{ message, errors }` through familyFormInvalid).
 * validate-child is limited per address.
 */
export async function runFamilyAccountAction(
  app: FastifyInstance,
  request: FastifyRequest,
  input: FamilyAccountRequest,
) {
  if (input.action === 'validate-child') {
    const cost = 1 + input.children.length;
    await enforce(app.db, [{ rule: validateChildLimit, subject: addressSubject(request.ip), cost }]);
    return validateChildren(input);
  }
  const actor = familyActorOf(await requireSession(request));
  const deps = depsOf(app, request);
  if (input.action === 'create-children') return createChildren(deps, actor, input);
  return attachChild(deps, actor, input);
}

const depsOf = (app: FastifyInstance, request: FastifyRequest): FamilyDeps => ({
  db: app.db,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
  log: request.log,
});
