import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { allTables as tables } from '@platform/schema/db';

export type Tables = typeof tables;
/** One type for both drivers: the app never knows which one it runs on. */
export type Db = PgDatabase<PgQueryResultHKT, Tables>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Raw SQL with `$1…` parameters on the driver itself (what pg-boss speaks, decision 0014). */
export type SqlExecutor = (
  text: string,
  values?: readonly unknown[],
) => Promise<{ rows: unknown[] }>;

export type Database = {
  db: Db;
  kind: 'postgres' | 'pglite';
  /**
   * Outside any transaction. Without values the text may hold several statements (simple
   * protocol): pg-boss creates and migrates its schema that way.
   */
  executeSql: SqlExecutor;
  /** The same inside a drizzle transaction: what runs here commits or rolls back with it. */
  executorIn: (tx: Tx) => SqlExecutor;
  /**
   * LISTEN on a channel (a dedicated connection on PostgreSQL); resolves to the unlisten call.
   * `onListen` runs each time listening (re)starts — after a reconnect, notifications sent in
   * between were lost.
   */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ) => Promise<() => Promise<void>>;
  /**
   * A query's rows a page at a time, each page read only when the caller asks for it: a
   * server-side cursor on PostgreSQL (one pooled connection for as long as it reads). Null on
   * PGlite, whose one connection a cursor would hold: callers page by keys there (the export).
   */
  pagesOf:
    | ((
        text: string,
        values: readonly unknown[],
        pageRows: number,
      ) => AsyncIterable<Array<Record<string, unknown>>>)
    | null;
  close: () => Promise<void>;
};

export const migrationsFolder = path.resolve(import.meta.dirname, '../../../schema/drizzle');

/**
 * Every session speaks UTC and ISO dates, whatever the database or the server's host is set
 * to: times come back as `…+00` text that reads the same everywhere, and SQL that turns times
 * into days does so in UTC unless it names a zone (decision 0040).
 */
const sessionSettings = { TimeZone: 'UTC', DateStyle: 'ISO, MDY' } as const;

export type DatabaseOptions = {
  /** postgres:// URL; without it, PGlite in dataDir (or in memory when dataDir is null). */
  databaseUrl?: string | undefined;
  dataDir?: string | null;
  maxConnections?: number;
  /**
   * PGlite in memory only: start from this dump of an already migrated database
   * (`dumpDataDir`) instead of an empty one — tests make hundreds of databases, and loading a
   * dump is several times faster than running every migration (testing/database-templates.ts).
   * The migrations still run after, and find nothing left to do.
   */
  pgliteTemplate?: Blob;
};

/** Opens the database and runs the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const client = postgres(options.databaseUrl, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // Sent when each connection starts, so they override ALTER DATABASE … SET.
      // Statements prepared in transactions (preparingTransactions) are still planned for the
      // values they are run with, as unnamed ones were: no generic plan is ever kept.
      connection: { ...sessionSettings, plan_cache_mode: 'force_custom_plan' },
    });
    const db = drizzlePostgres(preparingTransactions(client), { schema: tables });
    await migratePostgres(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      executeSql: async (text, values = []) => {
        if (values.length > 0)
          return { rows: [...(await client.unsafe(text, asPgValues(values)))] };
        // Several statements may hold their own BEGIN … COMMIT, which postgres.js allows only
        // on a connection of their own; one left mid-transaction by an error is rolled back.
        const connection = await client.reserve();
        try {
          return { rows: [...(await connection.unsafe(text))] };
        } catch (error) {
          await connection.unsafe('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          connection.release();
        }
      },
      executorIn: (tx) => {
        const handle = driverHandleOf<postgres.TransactionSql>(tx, 'unsafe');
        return async (text, values = []) => ({
          rows: [...(await handle.unsafe(text, asPgValues(values)))],
        });
      },
      listen: async (channel, onPayload, onListen) => {
        const { unlisten } = await client.listen(channel, onPayload, onListen);
        return unlisten;
      },
      pagesOf: (text, values, pageRows) =>
        client.unsafe<Array<Record<string, unknown>>>(text, asPgValues(values)).cursor(pageRows),
      close: () => client.end({ timeout: 5 }),
    };
  }
  let dataPath: string | undefined;
  if (options.dataDir) {
    dataPath = path.join(options.dataDir, 'pgdata');
    mkdirSync(dataPath, { recursive: true });
  }
  // pg_trgm: CRM search's trigram index (migration 0004, decision 0012).
  const client = new PGlite({
    ...(dataPath ? { dataDir: dataPath } : {}),
    ...(!dataPath && options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {}),
    extensions: { pg_trgm },
  });
  // One session for the life of the client: set once.
  for (const [name, value] of Object.entries(sessionSettings))
    await client.query('select set_config($1, $2, false)', [name, value]);
  const db = drizzlePglite(client, { schema: tables });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    executeSql: async (text, values = []) => {
      if (values.length > 0) return client.query(text, [...values]);
      // PGlite's query() takes one statement; exec() takes several and answers each.
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    executorIn: (tx) => {
      const handle = driverHandleOf<Transaction>(tx, 'query');
      return (text, values = []) => handle.query(text, [...values]);
    },
    // In-process: the listener never loses its connection.
    listen: async (channel, onPayload, onListen) => {
      const unlisten = await client.listen(channel, onPayload);
      onListen?.();
      return unlisten;
    },
    pagesOf: null,
    close: () => client.close(),
  };
}

/** The largest statement run as a named prepared statement (see preparingTransactions). */
const PREPARED_TEXT_MAX = 4_000;
const PREPARED_PARAMETERS_MAX = 32;

/**
 * drizzle runs every statement it was not given a name for unprepared, and postgres.js then
 * asks the server for a parameterised statement's types before it can send the values: two
 * round trips per statement. Inside a transaction — a push, a booking's check, every write
 * path — small parameterised statements run here as named prepared statements instead: one
 * round trip (decision 0074). Only inside transactions: a transaction's connection is its own,
 * while on the pool a prepared statement would leave its connection open to unrelated queries
 * queued behind it (postgres.js pipelines them), which a statement waiting on a lock would
 * hold up — up to a deadlock the database cannot see. Large statements (bulk inserts, long id
 * lists) stay unnamed, so no connection keeps many one-off statements; postgres.js replaces
 * connections every 30–60 minutes, which bounds the rest. A plan dropped by a schema change
 * fails the transaction once and is prepared again on the next try (postgres.js forgets it).
 */
export function preparingTransactions<T extends object>(sql: T): T {
  const driver = sql as unknown as DriverHandle;
  return new Proxy(sql, {
    get(target, property, receiver) {
      // drizzle's transactions run on the handle `begin` gives its callback.
      if (property === 'begin') return preparingInside(driver.begin);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** A transaction's handle whose small parameterised statements run prepared. */
function preparingSmallStatements<T extends object>(sql: T): T {
  const driver = sql as unknown as DriverHandle;
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === 'unsafe')
        return (text: string, parameters?: unknown[], options?: { prepare?: boolean }) =>
          driver.unsafe(
            text,
            parameters,
            options?.prepare === false &&
              parameters?.length &&
              parameters.length <= PREPARED_PARAMETERS_MAX &&
              text.length <= PREPARED_TEXT_MAX
              ? { ...options, prepare: true }
              : options,
          );
      // A savepoint's handle is the transaction's connection too.
      if (property === 'savepoint') return preparingInside(driver.savepoint);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** `begin` or `savepoint`, whose callback (the last argument) gets a preparing handle. */
function preparingInside(open: (...args: unknown[]) => unknown) {
  return (...args: unknown[]) => {
    const callback = args.at(-1) as (inner: object) => unknown;
    return open(...args.slice(0, -1), (inner: object) => callback(preparingSmallStatements(inner)));
  };
}

/** What the proxies above use of a postgres.js handle (the pool's or a transaction's). */
type DriverHandle = {
  unsafe: (text: string, parameters?: unknown[], options?: { prepare?: boolean }) => unknown;
  /** The pool's. */
  begin: (...args: unknown[]) => unknown;
  /** A transaction's. */
  savepoint: (...args: unknown[]) => unknown;
};

/**
 * Parameters as node-postgres sends them, which pg-boss counts on: undefined is NULL and a
 * plain object is JSON (its queue options are a `json` parameter). postgres.js refuses both.
 */
function asPgValues(values: readonly unknown[]): never[] {
  return values.map((value) => {
    if (value === undefined) return null;
    const plainObject =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !(value instanceof Date) &&
      !Buffer.isBuffer(value);
    return plainObject ? JSON.stringify(value) : value;
  }) as never[];
}

/**
 * The driver's own handle of a drizzle transaction (postgres.js `TransactionSql`, PGlite
 * `Transaction`): drizzle keeps it on `session.client`, which its typings do not export. The
 * check makes a drizzle upgrade that moves it fail loudly here, not enqueue outside the
 * transaction; the job-queue tests roll a transaction back to prove the handle is the right one.
 */
function driverHandleOf<T>(tx: Tx, method: 'unsafe' | 'query'): T {
  const handle = (tx as unknown as { session?: { client?: Record<string, unknown> } }).session
    ?.client;
  if (typeof handle?.[method] !== 'function')
    throw new Error('drizzle no longer keeps the driver transaction on session.client');
  return handle as T;
}

/** `db.execute()` answers an array on postgres.js and `{ rows }` on PGlite; this reads either. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
