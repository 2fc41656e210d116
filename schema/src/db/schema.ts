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

export * from './tables.ts';
export * from './replicated-tables.ts';
export * from './payment-tables.ts';

export const allTables = {
  ...tables,
  ...paymentTables,
  rosterItems,
  timeEntries,
  bookings,
  orgBranding,
  customerNotes,
};
