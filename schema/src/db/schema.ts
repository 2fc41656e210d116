// The drizzle schema entry point (`@platform/schema/db`): server-only, never imported by the PWA.
import {
  bookings,
  customerNotes,
  orgBranding,
  rosterItems,
  timeEntries,
} from './replicated-tables.ts';
import { tables } from './tables.ts';
import { paymentTables } from './payment-tables.ts';
import { inviteTables } from './invite-tables.ts';
import { creditTables } from './credit-tables.ts';
import { scheduleTables } from './schedule-tables.ts';
import { importTables } from './import-tables.ts';
import { contactListTables } from './contact-list-tables.ts';

export * from './tables.ts';
export * from './replicated-tables.ts';
export * from './payment-tables.ts';
export * from './invite-tables.ts';
export * from './credit-tables.ts';
export * from './schedule-tables.ts';
export * from './import-tables.ts';
export * from './contact-list-tables.ts';

export const allTables = {
  ...tables,
  ...paymentTables,
  ...inviteTables,
  ...creditTables,
  ...scheduleTables,
  ...importTables,
  ...contactListTables,
  rosterItems,
  timeEntries,
  bookings,
  orgBranding,
  customerNotes,
};
