import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { buildApp } from '../../sync-server/src/app.ts';
import { loadConfig } from '../../sync-server/src/config.ts';
import { openDatabase, type Database } from '../../sync-server/src/db/open-database.ts';
import { addMembership, insertTestOrg, insertTestUser, TEST_PASSWORD } from '../../sync-server/src/testing/auth-fixtures.ts';

/**
 * Shared pieces of the benchmarks in this folder: a throw-away PostgreSQL database per run,
 * the real app listening on 127.0.0.1, logging in over HTTP, a fetch-based SSE reader,
 * percentiles and tables. Benchmarks talk to 127.0.0.1 only and stop by themselves.
 */

export const HOST = '127.0.0.1';
const DEFAULT_DATABASE_URL = `postgres://postgres@${HOST}:5432/test`;

// ── numbers ────────────────────────────────────────────────────────────────────────────────

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}
export const median = (values: readonly number[]) => percentile(values, 50);

/** Runs `fn` and returns its result with the elapsed wall time in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

export const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');

/** Prints a Markdown table (pasteable into docs/benchmarks.md). */
export function printTable(title: string, header: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(line(header));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
  console.log('');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `worker(i)` for i in 0..count-1 with at most `concurrency` at a time. */
export async function forEachConcurrently(count: number, concurrency: number, worker: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(count, concurrency) }, async () => {
    while (next < count) await worker(next++);
  });
  await Promise.all(lanes);
}

/**
 * CPU time (ms) used so far by the PostgreSQL processes on this machine (the server, its
 * backends and workers, and — through the server's own account of the children it has
 * reaped — backends that have exited meanwhile), from /proc: what requests cost the database,
 * beside what they cost Node. Counts whole clock ticks of each process, so read it around many
 * requests. Every cluster on the machine is counted: other work on it is charged too. NaN where
 * no PostgreSQL process can be seen (not Linux, or a database on another machine).
 */
export function postgresCpuMs(): number {
  const ticksPerSecond = 100; // USER_HZ on Linux
  let ticks = 0;
  let seen = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return Number.NaN;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    seen += 1;
    const fields = stat.slice(close + 2).split(' ');
    // After "pid (comm) " the state is field 3: utime (14), stime (15), and the reaped
    // children's cutime (16) and cstime (17) are at indexes 11 to 14 here.
    for (const index of [11, 12, 13, 14]) ticks += Number(fields[index]);
  }
  return seen ? (ticks / ticksPerSecond) * 1000 : Number.NaN;
}

// ── the machine ────────────────────────────────────────────────────────────────────────────

export type Machine = { date: string; nproc: string; cpu: string; memory: string; node: string; postgres: string; load: string };

export async function describeMachine(): Promise<Machine> {
  const cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<Array<{ server_version: string }>>`show server_version`;
    return {
      date: execFileSync('date', { encoding: 'utf8' }).trim(),
      nproc: execFileSync('nproc', { encoding: 'utf8' }).trim(),
      cpu: cpuModel,
      memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
      node: process.version,
      postgres: row?.server_version ?? 'unknown',
      load: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
  } finally {
    await admin.end({ timeout: 5 });
  }
}

export function printMachine(machine: Machine): void {
  console.log(
    `Machine: ${machine.nproc} CPUs (${machine.cpu}), ${machine.memory}, Node ${machine.node}, PostgreSQL ${machine.postgres}` +
      `\nDate: ${machine.date} · load average at start: ${machine.load}`,
  );
}

// ── one benchmark run: a deadline and cleanups ─────────────────────────────────────────────

const cleanups: Array<() => Promise<void>> = [];

/** Registers work that must happen however the run ends (newest first). */
export function onCleanup(fn: () => Promise<void>): void {
  cleanups.unshift(fn);
}

async function runCleanups(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.shift();
    try {
      await Promise.race([fn?.(), sleep(10_000)]);
    } catch (error) {
      console.error('cleanup failed:', error);
    }
  }
}

/**
 * Runs a benchmark with a hard deadline: past `limitMs` (or on Ctrl-C) it cleans up (drops the
 * throw-away database) and exits non-zero, so a run never hangs.
 */
export async function runBench(name: string, limitMs: number, main: () => Promise<void>): Promise<void> {
  const abort = (reason: string) => {
    console.error(`\n${name}: ${reason}; cleaning up.`);
    void runCleanups().finally(() => process.exit(1));
  };
  const deadline = setTimeout(() => abort(`stopped after ${Math.round(limitMs / 1000)} s`), limitMs);
  process.once('SIGINT', () => abort('interrupted'));
  try {
    await main();
    await runCleanups();
    clearTimeout(deadline);
    // Sockets left by fetch keep-alive must not keep the process alive.
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  } catch (error) {
    console.error(error);
    await runCleanups();
    process.exit(1);
  }
}

// ── a throw-away database ──────────────────────────────────────────────────────────────────

/** DATABASE_URL (or the local default), refusing anything but this machine. */
export function adminUrl(): string {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const host = new URL(url).hostname;
  if (host !== HOST && host !== 'localhost') throw new Error(`benchmarks run against 127.0.0.1 only, not ${host}`);
  return url;
}

export type BenchDatabase = {
  name: string;
  /** The app's database, as server.ts opens it (migrated, its default pool of 10). */
  database: Database;
  /** A separate postgres.js client for seeding, checks and the reference measurements. */
  sql: postgres.Sql;
};

/** A fresh, migrated database (as sync-server/src/testing/test-database.ts makes), dropped at cleanup. */
export async function freshDatabase(label: string, options: { referenceConnections?: number } = {}): Promise<BenchDatabase> {
  const url = adminUrl();
  const name = `bench_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end({ timeout: 5 });
  onCleanup(async () => {
    const cleanup = postgres(url, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end({ timeout: 5 });
  });
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: dbUrl.toString() });
  onCleanup(() => database.close());
  const sql = postgres(dbUrl.toString(), { max: options.referenceConnections ?? 10, onnotice: () => {} });
  onCleanup(() => sql.end({ timeout: 5 }));
  return { name, database, sql };
}

// ── the real app ───────────────────────────────────────────────────────────────────────────

/** The whole app (buildApp) on `database`, listening on 127.0.0.1 at a free port. */
export async function startApp(database: Database): Promise<{ app: FastifyInstance; base: string }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    PWA_DIST: '/nonexistent-pwa-dist',
    PUBLIC_URL: `http://${HOST}:3000`,
    HOST,
  });
  const app = await buildApp({ config, database });
  onCleanup(() => app.close());
  return { app, base: await listen(app) };
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: HOST });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://${HOST}:${address.port}`;
}

/** An organisation and `count` staff members of it holding every claim (fixtures' helpers). */
export async function seedOrgWithStaff(db: Database['db'], count: number) {
  const org = await insertTestOrg(db, 'Bench Gym');
  const staff = [];
  for (let i = 0; i < count; i++) {
    const user = await insertTestUser(db, { firstName: 'Bench', lastName: `Staff ${i}` });
    await addMembership(db, user.id, org.id, 'staff');
    staff.push({ id: user.id, email: user.email ?? '' });
  }
  return { org, staff };
}

/** Logs in over HTTP (POST /auth/login, org view) and returns the Cookie header to send. */
export async function logIn(base: string, email: string, orgId: string): Promise<string> {
  const response = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: email, password: TEST_PASSWORD, profileType: 'use-org', profileOrgId: orgId }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200) throw new Error(`log-in failed: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  return cookies.filter((c) => c.includes('=') && !c.endsWith('=')).join('; ');
}

// ── server-sent events ─────────────────────────────────────────────────────────────────────

/**
 * A fetch-based SSE reader (as the PWA and sync-server/src/testing/sse-client.ts read the
 * stream) that stamps each event with its arrival time (performance.now()).
 */
export async function openEventStream(
  url: string,
  headers: Record<string, string>,
  onEvent: (event: EventSourceMessage, arrivedAt: number) => void,
): Promise<{ close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: AbortSignal.any([controller.signal, AbortSignal.timeout(10 * 60_000)]),
  });
  if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
  let arrivedAt = 0;
  const parser = createParser({ onEvent: (event) => onEvent(event, arrivedAt) });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        arrivedAt = performance.now();
        parser.feed(value);
      }
    } catch {
      // aborted
    }
  })();
  return { close: () => controller.abort() };
}
