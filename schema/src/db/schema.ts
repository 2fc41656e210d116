// The drizzle schema entry point (`@platform/schema/db`): server-only, never imported by the PWA.
import { bookings, customerNotes, orgBranding, rosterItems, timeEntries } from './replicated-tables.ts';
import { tables } from './tables.ts';

export * from './tables.ts';
export * from './replicated-tables.ts';

export const allTables = { ...tables, rosterItems, timeEntries, bookings, orgBranding, customerNotes };
