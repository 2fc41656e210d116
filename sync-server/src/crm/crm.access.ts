import { fullName } from '@platform/schema/app/full-name.rules';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../access/act-for.ts';
import { Forbidden } from '../plugins/domain-errors.ts';
import { requireSession } from '../plugins/session.ts';

/** Staff acting on their organisation's customer list. */
export type CrmStaff = {
  orgId: string;
  userId: string;
  name: string;
  /** Who is at the keyboard when it is not this staff member (an admin impersonating). */
  impersonatorUserId?: string | null;
};

/** The staff member as the decision point (access/act-for.ts) sees them. */
export const staffPrincipal = (staff: CrmStaff): Principal => ({
  userId: staff.userId,
  view: 'org',
  orgId: staff.orgId,
  claims: ['view-customers'],
  role: 'user',
  switchedFrom: null,
});

/**
 * spec §2 CRM: claim view-customers in the session's organisation, org view. Everything the
 * CRM reads or writes is filtered by this orgId, so another organisation's ids answer 404.
 */
export async function requireCrmStaff(request: FastifyRequest): Promise<CrmStaff> {
  const { session, user, claims } = await requireSession(request);
  if (session.view !== 'org' || !session.orgId || !claims.includes('view-customers'))
    throw new Forbidden(crmMessages.notAllowed);
  return {
    orgId: session.orgId,
    userId: user.id,
    name: fullName(user),
    impersonatorUserId: session.impersonatorUserId ?? null,
  };
}

/** Staff first (a preValidation hook): a caller without the claim learns nothing about the input's shape (403). */
export const crmStaffFirst = async (request: FastifyRequest) => {
  await requireCrmStaff(request);
};
