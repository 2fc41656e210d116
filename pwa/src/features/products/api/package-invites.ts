import {
  acceptInviteResponseSchema,
  customerInviteSchema,
  pendingInvitesResponseSchema,
  pendingInviteSchema,
  sendPackageInviteResponseSchema,
  type AcceptInviteResponse,
  type CustomerInvite,
  type PendingInvite,
  type SendPackageInvite,
} from '@platform/schema/payments/package-invite.zod';
import type { NewCard } from '@platform/schema/payments/charge.zod';
import { api } from '../../../lib/api.ts';

/** POST /api/package-invite (spec §7): one path, the action names the operation. */
const path = '/api/package-invite';

/** Staff (manage-point-of-sale): offer the customer a product; the answer says what happened. */
export function sendPackageInvite(
  request: SendPackageInvite,
): Promise<{ invite: PendingInvite; message: string }> {
  return api(path, { json: request, schema: sendPackageInviteResponseSchema });
}

/** Staff: the open invitations of one customer, or of the whole organisation. */
export async function getPendingInvites(
  rosterId: string | null,
  signal?: AbortSignal,
): Promise<PendingInvite[]> {
  const { invites } = await api(path, {
    json: { action: 'get-pending-invites', rosterId },
    schema: pendingInvitesResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return invites;
}

export function cancelPackageInvite(inviteId: string): Promise<PendingInvite> {
  return api(path, {
    json: { action: 'cancel-package-invite', inviteId },
    schema: pendingInviteSchema,
  });
}

/** The invited customer: the product, price, discount and first charge. */
export function getPackageInvite(inviteId: string, signal?: AbortSignal): Promise<CustomerInvite> {
  return api(path, {
    json: { action: 'get-package-invite', inviteId },
    schema: customerInviteSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The invited customer pays, with a saved card of theirs or a new one. */
export function acceptPackageInvite(
  inviteId: string,
  payWith: { paymentMethodId: string } | NewCard,
): Promise<AcceptInviteResponse> {
  return api(path, {
    json: { action: 'accept-package-invite', inviteId, ...payWith },
    schema: acceptInviteResponseSchema,
  });
}
