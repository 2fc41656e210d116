import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './schema/src/db/tables.ts',
    './schema/src/db/replicated-tables.ts',
    './schema/src/db/payment-tables.ts',
    './schema/src/db/invite-tables.ts',
    './schema/src/db/credit-tables.ts',
    './schema/src/db/schedule-tables.ts',
    './schema/src/db/import-tables.ts',
    './schema/src/db/contact-list-tables.ts',
  ],
  out: './schema/drizzle',
});
