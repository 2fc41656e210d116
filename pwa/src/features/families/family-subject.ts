/**
 * Whose family a modal manages. Always passed in: on the settings page it is the signed-in
 * person, on a CRM customer profile (staff) it is that customer.
 */
export type FamilySubject = { id: string; name: string; email?: string | null };
