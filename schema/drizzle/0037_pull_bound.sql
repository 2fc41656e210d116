-- The position a pull may read below (decision 0076, amending 0005): the oldest transaction
-- running in `snapshot` that may write to this database, or the snapshot's xmax when none is.
-- A running transaction is left out only when it is positively known to be another
-- database's: it holds the exclusive lock on its own id (pg_locks, read under the lock
-- manager's partition locks, so id and pid agree) and that pid is a backend connected to
-- another database (pg_stat_activity: pid and database from one copy of its status; a
-- backend's database never changes). Anything not known stays in: leaving one in only delays
-- rows, leaving out one that writes here would skip them.
--
-- STABLE: its queries run under the calling statement's snapshot, and callers pass that
-- statement's own pg_current_snapshot(), so rows and bound agree. plpgsql, not SQL inlined
-- into the pull: its plan is kept per session (inlined, the views were planned again on every
-- pull: a third of the pulls a second), and it looks at nothing when nothing is running.
CREATE OR REPLACE FUNCTION sync_pull_bound(snapshot pg_snapshot) RETURNS xid8
LANGUAGE plpgsql STABLE AS $$
DECLARE
  bound xid8;
BEGIN
  -- Nothing running below xmax.
  IF pg_snapshot_xmin(snapshot) = pg_snapshot_xmax(snapshot) THEN
    RETURN pg_snapshot_xmax(snapshot);
  END IF;
  -- A standby's snapshot lists the primary's running transactions among its subtransactions,
  -- not in xip: only xmin is known to be safe there.
  IF pg_is_in_recovery() THEN
    RETURN pg_snapshot_xmin(snapshot);
  END IF;
  BEGIN
    -- Backend status is otherwise kept for the rest of a transaction: a pid seen earlier in
    -- it could have been handed to another backend since.
    PERFORM pg_stat_clear_snapshot();
    SELECT min(running.xid) INTO bound
    FROM pg_snapshot_xip(snapshot) AS running(xid)
    WHERE NOT EXISTS (
      SELECT 1
      FROM pg_locks AS held
      JOIN pg_stat_activity AS backend ON backend.pid = held.pid
      WHERE held.locktype = 'transactionid'
        AND held.mode = 'ExclusiveLock'
        AND held.granted
        AND held.transactionid = xid(running.xid)
        AND backend.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
    );
  EXCEPTION WHEN insufficient_privilege THEN
    -- A server that does not let this role see the running backends: the cluster-wide bound.
    RETURN pg_snapshot_xmin(snapshot);
  END;
  RETURN coalesce(bound, pg_snapshot_xmax(snapshot));
END
$$;
