import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/open-database.ts';

export type OrgHomeCounts = {
  brandingChanged: boolean;
  staffMembers: number;
  customers: number;
  newCustomersThisWeek: number;
  onTheClock: number;
};

/** Everything the owner's home counts, in one round trip. */
export async function readOrgHomeCounts(db: Db, orgId: string): Promise<OrgHomeCounts> {
  const result = await db.execute(sql`
    select
      exists (select 1 from org_branding b join organizations o on o.id = b.org_id
        where b.org_id = ${orgId}::uuid
          and (b.logo_version is not null or b.updated_at > o.created_at + interval '1 second'))
        as branding_changed,
      (select count(*)::int from memberships m where m.org_id = ${orgId}::uuid and m.kind = 'staff')
        as staff_members,
      (select count(*)::int from roster_items r where r.org_id = ${orgId}::uuid and not r.deleted)
        as customers,
      (select count(*)::int from roster_items r where r.org_id = ${orgId}::uuid and not r.deleted
        and r.created_at > now() - interval '7 days') as new_customers,
      (select count(distinct t.user_id)::int from time_entries t
        where t.org_id = ${orgId}::uuid and not t.deleted and t.end_time is null) as on_the_clock`);
  const [row] = rowsOf<{
    branding_changed: boolean;
    staff_members: number;
    customers: number;
    new_customers: number;
    on_the_clock: number;
  }>(result);
  return {
    brandingChanged: row?.branding_changed ?? false,
    staffMembers: row?.staff_members ?? 0,
    customers: row?.customers ?? 0,
    newCustomersThisWeek: row?.new_customers ?? 0,
    onTheClock: row?.on_the_clock ?? 0,
  };
}
