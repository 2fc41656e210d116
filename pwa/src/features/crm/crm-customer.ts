import { fullName } from '@platform/schema/app/full-name.rules';

/** A customer as the CRM screens pass it around (and as app/ hands it to the family modals). */
export type CrmCustomer = {
  rosterId: string;
  userId: string;
  name: string;
  email: string | null;
};

export const customerProfilePath = (rosterId: string) =>
  `/dashboard/crm/customers/${encodeURIComponent(rosterId)}`;

export const fullNameOf = (person: {
  firstName: string;
  lastName: string;
  email?: string | null;
}) => fullName(person) || person.email || 'Unnamed customer';
