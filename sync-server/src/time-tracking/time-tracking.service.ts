import { randomUUID } from 'node:crypto';
import { accessTo } from '@platform/schema/sync/access.rules';
import {
  applyClockAction,
  clockStatusOf,
  clockTimeRefusal,
  runningEntryConflict,
  type ClockState,
} from '@platform/schema/time-tracking/time-clock.rules';
import type { TimeEntryDoc } from '@platform/schema/time-tracking/time-entry.zod';
import type {
  ClockActionInput,
  CreateTimeEntryInput,
  DeleteTimeEntryInput,
  GetCurrentStatusInput,
  GetTimeEntriesInput,
  TimeTrackingRequest,
  UpdateTimeEntryInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { Forbidden, NotFound, RuleBroken } from '../plugins/domain-errors.ts';
import type { Actor } from '../sync/actor.ts';
import { notifyChange } from '../sync/change-feed.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import type { ReportUnreadable } from '../sync/read-document.ts';
import {
  findClockEntries,
  findTimeEntry,
  listTimeEntries,
  lockKeys,
  lockPeopleEntries,
} from './time-entries.repository.ts';
import { writeTimeEntries } from './time-entries.service.ts';

export const timeTrackingMessages = {
  ownOnly: 'You can only manage your own time entries.',
  notFound: 'There is no such time entry in this organization.',
} as const;

/** 422: an impossible clock move or an entry that breaks a rule; nothing was written. */
export class TimeEntryRefused extends RuleBroken {}
class TimeEntryNotFound extends NotFound {
  constructor() {
    super(timeTrackingMessages.notFound);
  }
}

type Entry = WireDoc<TimeEntryDoc>;

/**
 * spec §7 POST /api/time-tracking, one operation per action. `reportUnreadable` hears of the
 * stored entries a list had to leave out (decision 0040).
 */
export function runTimeTrackingAction(
  db: Db,
  actor: Actor,
  input: TimeTrackingRequest,
  { reportUnreadable, now = new Date() }: { reportUnreadable: ReportUnreadable; now?: Date },
) {
  switch (input.action) {
    case 'clock-in':
    case 'clock-out':
    case 'start-break':
    case 'end-break':
      return clock(db, actor, input, now);
    case 'get-current-status':
      return getCurrentStatus(db, actor, input);
    case 'get-time-entries':
      return getTimeEntries(db, actor, input, reportUnreadable);
    case 'create-time-entry':
      return createTimeEntry(db, actor, input, now);
    case 'update-time-entry':
      return updateTimeEntry(db, actor, input, now);
    case 'delete-time-entry':
      return deleteTimeEntry(db, actor, input, now);
  }
}

/** The state machine of schema/ decides every move; the entry's time is when it happened (`at`), not when it arrived. */
async function clock(
  db: Db,
  actor: Actor,
  input: ClockActionInput,
  now: Date,
): Promise<ClockState> {
  const userId = input.userId ?? actor.userId;
  assertMayManage(actor, input.orgId, userId);
  const at = input.at ? new Date(input.at) : now;
  refuseIf(clockTimeRefusal(at, now));
  return db.transaction(async (tx) => {
    const state = await lockClock(tx, input.orgId, userId);
    const move = applyClockAction(state, input.action, at, {
      orgId: input.orgId,
      userId,
      newEntryId: randomUUID(),
    });
    if (!move.ok) throw new TimeEntryRefused(move.message);
    await writeOne(tx, actor, move.entry.id, () => ({ ...move.entry, _deleted: false }));
    return clockStatusOf(await findClockEntries(tx, input.orgId, userId));
  });
}

async function getCurrentStatus(
  db: Db,
  actor: Actor,
  input: GetCurrentStatusInput,
): Promise<ClockState> {
  const userId = input.userId ?? actor.userId;
  assertMayManage(actor, input.orgId, userId);
  return clockStatusOf(await findClockEntries(db, input.orgId, userId));
}

async function getTimeEntries(
  db: Db,
  actor: Actor,
  input: GetTimeEntriesInput,
  reportUnreadable: ReportUnreadable,
): Promise<{ entries: TimeEntryDoc[] }> {
  const userId = input.userId === 'all' ? null : (input.userId ?? actor.userId);
  assertMayManage(actor, input.orgId, userId);
  const entries = await listTimeEntries(
    db,
    { orgId: input.orgId, userId, from: input.from, to: input.to },
    reportUnreadable,
  );
  return { entries: entries.map(withoutTombstoneFlag) };
}

async function createTimeEntry(
  db: Db,
  actor: Actor,
  input: CreateTimeEntryInput,
  now: Date,
): Promise<TimeEntryDoc> {
  const { userId = actor.userId, ...times } = input.timeEntry;
  assertMayManage(actor, input.orgId, userId);
  const next: Entry = {
    id: randomUUID(),
    orgId: input.orgId,
    userId,
    ...times,
    updatedAt: now.toISOString(),
    _deleted: false,
  };
  return db.transaction(async (tx) => {
    const state = await lockClock(tx, input.orgId, userId);
    refuseIf(runningEntryConflict(state, next));
    return withoutTombstoneFlag(await writeOne(tx, actor, next.id, () => next));
  });
}

async function updateTimeEntry(
  db: Db,
  actor: Actor,
  input: UpdateTimeEntryInput,
  now: Date,
): Promise<TimeEntryDoc> {
  const saved = await changeEntry(db, actor, input.orgId, input.entryId, (master) => ({
    ...master,
    ...input.timeEntry,
    updatedAt: now.toISOString(),
  }));
  return withoutTombstoneFlag(saved);
}

/** A tombstone (`_deleted`), so replicas delete it too. */
async function deleteTimeEntry(
  db: Db,
  actor: Actor,
  input: DeleteTimeEntryInput,
  now: Date,
): Promise<{ ok: true }> {
  const entryId = input.entryId ?? input.deleteData?.entryId ?? '';
  await changeEntry(db, actor, input.orgId, entryId, (master) => ({
    ...master,
    updatedAt: now.toISOString(),
    _deleted: true,
  }));
  return { ok: true };
}

/**
 * The actor may manage `userId`'s entries (`null`: everyone's in the organisation) — by the
 * rule replication scopes by (schema/src/sync/access.rules.ts), so both paths agree.
 */
export function assertMayManage(actor: Actor, orgId: string, userId: string | null): void {
  const access = accessTo('time-entries', actor);
  // The route checked the claim in this organisation; checked again so no caller can skip it.
  if (!access?.writable || actor.orgId !== orgId)
    throw new Forbidden('Not allowed for this organization.');
  if (access.reach !== 'all' && userId !== actor.userId)
    throw new Forbidden(timeTrackingMessages.ownOnly);
}

/** Changes an existing live entry of this organisation; the person's clock is locked first, as for a clock move. */
async function changeEntry(
  db: Db,
  actor: Actor,
  orgId: string,
  entryId: string,
  change: (master: Entry) => Entry,
): Promise<Entry> {
  return db.transaction(async (tx) => {
    // Read unlocked only to learn whose clock to lock; the master is read again under the locks.
    const found = await findTimeEntry(tx, entryId);
    if (!found || found._deleted || found.orgId !== orgId) throw new TimeEntryNotFound();
    assertMayManage(actor, orgId, found.userId);
    const state = await lockClock(tx, orgId, found.userId);
    // The stored id, not the one asked for: a lock key must match push.ts's to the letter (uuid case).
    return writeOne(tx, actor, found.id, (master) => {
      if (!master || master._deleted) throw new TimeEntryNotFound();
      const next = change(master);
      refuseIf(runningEntryConflict(state, next));
      return next;
    });
  });
}

/**
 * Serialises whatever reads a person's clock and then changes it — two clock-ins from two
 * devices, or a clock move and a replication push — and returns their state from then on.
 * It is the person's lock, the one push.ts takes before any entry of theirs (decision 0045):
 * while it is held, the entries read here are the masters the move will overwrite.
 */
async function lockClock(tx: Tx, orgId: string, userId: string): Promise<ClockState> {
  await lockPeopleEntries(tx, [{ orgId, userId }]);
  return clockStatusOf(await findClockEntries(tx, orgId, userId));
}

/**
 * Every API write of a time entry: under its person's lock (lockClock) and then the entry's —
 * push.ts's order, which also stops a push naming another person for this id — against the
 * master read under them, through the one write path replication uses, then announced to live
 * clients as push.ts does.
 */
async function writeOne(
  tx: Tx,
  actor: Actor,
  id: string,
  build: (master: Entry | null) => Entry,
): Promise<Entry> {
  await lockKeys(tx, [id]);
  const master = await findTimeEntry(tx, id);
  const next = build(master);
  const [refused] = await writeTimeEntries(tx, actor, [{ next, master }]);
  if (refused) throw new TimeEntryRefused(refused.message);
  await notifyChange(tx, {
    collection: 'time-entries',
    orgId: next.orgId,
    ownerIds: [next.userId],
  });
  return next;
}

function refuseIf(message: string | null): void {
  if (message) throw new TimeEntryRefused(message);
}

function withoutTombstoneFlag({ _deleted, ...entry }: Entry): TimeEntryDoc {
  return entry;
}
