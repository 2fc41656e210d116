import { prepareDatabaseTemplates } from '../../sync-server/src/testing/database-templates.ts';

/** The e2e servers run on PostgreSQL when DATABASE_URL is set, else PGlite: one template for that. */
export default async function setup() {
  return prepareDatabaseTemplates({ pglite: !process.env.DATABASE_URL });
}
