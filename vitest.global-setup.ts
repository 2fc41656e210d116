import { prepareDatabaseTemplates } from './sync-server/src/testing/database-templates.ts';

/** Once per test run: the migrated databases each test database is copied from. */
export default async function setup() {
  return prepareDatabaseTemplates();
}
