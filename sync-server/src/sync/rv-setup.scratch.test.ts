import { it } from 'vitest';
import postgres from 'postgres';
import { openDatabase } from '../db/open-database.ts';

it('creates rv_main and rv_other', async () => {
  const url = process.env.DATABASE_URL!;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  for (const name of ['rv_main', 'rv_other']) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  }
  await admin.end();
  for (const name of ['rv_main', 'rv_other']) {
    const u = new URL(url); u.pathname = `/${name}`;
    const d = await openDatabase({ databaseUrl: u.toString(), maxConnections: 1 });
    await d.close();
  }
}, 120_000);
