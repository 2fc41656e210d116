import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AddCustomerInput, AddCustomerResponse } from '@platform/schema/crm/crm.zod';
import { rosterItems } from '@platform/schema/db';
import type { Mailer } from '../adapters/mailer/port.ts';
import { findUserByEmail, insertUser } from '../auth/users.repository.ts';
import type { Db } from '../db/open-database.ts';
import { findOrganization } from '../organizations/organizations.repository.ts';
import { enrolCustomer } from '../roster/roster.service.ts';
import type { CrmStaff } from './crm.access.ts';
import { customerInvitationEmail } from './invitation.email.ts';
import { insertInvitation } from './invitations.repository.ts';

export type AddCustomerDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
};

/**
 * spec §2 Add customer, §3 Invite request (decision 0012). A new address becomes a
 * password-less account; an address with an account is linked, never duplicated. Either way
 * the person gets a customer membership and roster item (enrolCustomer) in one transaction,
 * and — with sendInviteEmails — an email after commit: a signup link carrying an invitation
 * token while the account has no sign-in of its own, a log-in link otherwise.
 */
export async function addCustomer(
  deps: AddCustomerDeps,
  staff: CrmStaff,
  input: AddCustomerInput,
): Promise<AddCustomerResponse> {
  const email = input.customerEmail.toLowerCase();
  const typed = { firstName: input.customerFirstName, lastName: input.customerLastName };
  const org = await findOrganization(deps.db, staff.orgId);
  if (!org) throw new Error('the session organisation does not exist');
  const outcome = await deps.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx as unknown as Db, email);
    const userId =
      existing?.id ??
      (await insertUser(tx, { email, passwordHash: null, ...typed, middleName: null }));
    // The roster item of a linked account shows what staff typed, not the account's stored
    // name: adding an address must not reveal whose it is (decision 0012).
    await enrolCustomer(tx, staff.orgId, { id: userId, ...typed, email });
    if (input.customerPhone || input.externalPayments)
      await tx
        .update(rosterItems)
        .set({
          ...(input.customerPhone ? { phone: input.customerPhone } : {}),
          // spec §6: paying outside the platform makes the person a record (notes, metrics).
          ...(input.externalPayments ? { externalPayments: true } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(rosterItems.orgId, staff.orgId), eq(rosterItems.userId, userId)));
    const [item] = await tx
      .select()
      .from(rosterItems)
      .where(and(eq(rosterItems.orgId, staff.orgId), eq(rosterItems.userId, userId)));
    if (!item) throw new Error('roster item missing after enrolment');
    const claimable = !existing || (!existing.passwordHash && !existing.googleSubject);
    const token =
      input.sendInviteEmails && claimable
        ? await insertInvitation(tx, { orgId: staff.orgId, userId, invitedBy: staff.userId })
        : null;
    return { item, linkedExisting: Boolean(existing), token };
  });
  let inviteSent = false;
  if (input.sendInviteEmails) {
    const query = `orgId=${encodeURIComponent(staff.orgId)}&email=${encodeURIComponent(email)}`;
    const signupLink = outcome.token
      ? `${deps.publicUrl}/auth/signup?${query}&invitation=${encodeURIComponent(outcome.token)}`
      : null;
    try {
      await deps.mailer.send(
        customerInvitationEmail({
          to: email,
          orgId: staff.orgId,
          orgLabel: org.label,
          firstName: input.customerFirstName,
          signupLink,
          loginLink: `${deps.publicUrl}/auth/login?profileType=use-customer&profileOrgId=${encodeURIComponent(staff.orgId)}`,
        }),
      );
      inviteSent = true;
    } catch (error) {
      // The customer exists; the email can be sent again by adding them again.
      deps.log.error({ err: error, to: email }, 'customer invitation not sent');
    }
  }
  const { item } = outcome;
  return {
    id: item.id,
    athlete: {
      id: item.userId,
      fullName: `${item.firstName} ${item.lastName}`.trim(),
      firstName: item.firstName,
      lastName: item.lastName,
      email: item.email,
    },
    invitedPerson: { email, ...typed },
    linkedExisting: outcome.linkedExisting,
    inviteSent,
  };
}
