-- Whether a transaction that held a pull's bound has ended — committed, aborted, or so old that
-- PostgreSQL no longer says (long over) — so that the pull looks again (decision 0076). Asked
-- only of a transaction below the pull's snapshot's xmax (pg_xact_status throws for one in the
-- future). False, and so no second look, where this role may not call pg_xact_status or it
-- refuses the id: a hardened server keeps pulling as before instead of failing every pull
-- (permissions on a function named in a statement are checked when the statement starts, so
-- the call is made here, where the refusal can be caught).
CREATE OR REPLACE FUNCTION sync_transaction_ended(xid xid8) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RETURN pg_xact_status(xid) IS DISTINCT FROM 'in progress';
EXCEPTION WHEN insufficient_privilege OR invalid_parameter_value THEN
  RETURN false;
END
$$;
