import { crmMessages } from '@platform/schema/crm/crm.messages';
import { Conflict } from '../plugins/domain-errors.ts';

/** Add customer for an address already on this organisation's list (409, with its profile). */
export class AlreadyCustomer extends Conflict {
  constructor(details: { rosterId: string; invitationPending: boolean }) {
    super(crmMessages.alreadyCustomer, details);
  }
}
