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
}) => `${person.firstName} ${person.lastName}`.trim() || person.email || 'Unnamed customer';
