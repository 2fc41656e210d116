import { contactListMessages } from '@platform/schema/crm/contact-lists.zod';
import { crmMessages } from '@platform/schema/crm/crm.messages';
import { Conflict, NotFound, RuleBroken } from '../plugins/domain-errors.ts';

/** Add customer for an address already on this organisation's list (409, with its profile). */
export class AlreadyCustomer extends Conflict {
  constructor(details: { rosterId: string; invitationPending: boolean }) {
    super(crmMessages.alreadyCustomer, details);
  }
}

/** A roster item this organisation does not have (404, whatever the id). */
export class RosterItemNotFound extends NotFound {
  constructor() {
    super(crmMessages.notFound);
  }
}

/** Resend for someone who already answered, or who has no address to send to (409). */
export class InvitationNotPending extends Conflict {
  constructor() {
    super(crmMessages.invitationNotPending);
  }
}

/** A contact list this organisation does not have (404, whatever the id). */
export class ContactListNotFound extends NotFound {
  constructor() {
    super(contactListMessages.notFound);
  }
}

/** Another list of the organisation has the name, whatever its letter case (409). */
export class ContactListNameTaken extends Conflict {
  constructor(name: string) {
    super(contactListMessages.nameTaken(name));
  }
}

/** Only the organisation's customers go on its contact lists (422; the same for any unknown id). */
export class NotACustomer extends RuleBroken {
  constructor() {
    super(contactListMessages.notACustomer);
  }
}
