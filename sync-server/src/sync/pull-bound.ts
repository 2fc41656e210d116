import { sql, type SQL } from 'drizzle-orm';

/**
 * The position a pull may read below (decision 0005, scoped to this database by decision
 * 0076): the oldest transaction that was still running when `snapshot` was taken and that may
 * write to this database — or, when none was, the snapshot's `xmax`. Every row with a txid
 * below it was committed before the snapshot (so it is visible in it) or was never written; a
 * transaction that commits later has a txid at or above it, so it sorts after every checkpoint
 * a pull under this snapshot hands out.
 *
 * Rows carry their writer's top-level transaction id (the stamp trigger's
 * `pg_current_xact_id()`), and a backend writes only to the database it is connected to. So
 * a running transaction can be left out of the bound only when it is *known* to belong to
 * another database: it holds the exclusive lock on its own transaction id (`pg_locks`, read
 * under the lock manager's partition locks, so the id and the holder's pid agree) and that pid
 * is a backend connected elsewhere (`pg_stat_activity`, whose pid and database come from one
 * consistent copy of the backend's status; a backend's database never changes). Anything not
 * positively known — a transaction that finished between the snapshot and this look, a
 * prepared transaction, a backend whose status cannot be seen, a transaction id whose holder
 * is read mid-change — stays in the bound. Leaving in a transaction that did not need to be
 * only delays rows; leaving out one that writes here would skip its rows for good, which is why
 * the test is by positive identification and never by "not seen among this database's
 * writers" (`pull-bound.test.ts` holds the race that tells the two apart).
 *
 * Not `pg_stat_activity.backend_xid` alone: PostgreSQL copies each backend's status and then
 * reads the transaction id of whichever backend holds that slot *now*, so a slot reused in
 * between could pair another database with one of ours.
 *
 * The work is the SQL function `sync_pull_bound` (migration 0037), called once per statement
 * (a scalar subquery: an InitPlan, not a call per row). It answers xmin on a standby (whose
 * snapshot lists running transactions elsewhere than `xip`) and where this role may not see
 * the running backends, and looks at nothing when nothing is running.
 *
 * Before 0076 the bound was `pg_snapshot_xmin`: any writing transaction on the cluster, in any
 * database, held every feed until it ended.
 *
 * `snapshot` is `pg_current_snapshot()` — the snapshot of the statement this is part of, so
 * rows and bound agree — except in tests, which pass a snapshot taken earlier.
 */
export function pullBound(snapshot: SQL = sql`pg_current_snapshot()`): SQL {
  return sql`(select sync_pull_bound(${snapshot}))`;
}
