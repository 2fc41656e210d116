import { sql, type SQL } from 'drizzle-orm';
import { importColumns } from '@platform/schema/imports/import-rules';

/**
 * What an organisation's export holds (issue 17, decision 0072): one CSV file per section and
 * the same rows in everything.json. customers.csv and tags.csv have the columns the imports read
 * (spec §3), so an export imports into a new organisation as it is. Nothing secret is read:
 * no password hashes, tokens, card details or processor keys — only the organisation's own rows
 * and the names and addresses of its people.
 *
 * Each section is read a page at a time in a stable order (keyset on `k1, k2`), so a section of
 * 100,000 rows never sits in memory.
 */
export type ExportSection = {
  file: string;
  /** The key in everything.json. */
  key: string;
  columns: readonly string[];
  /** The rows (with `k1`, `k2` text keys) of one organisation, in order. */
  rows: (orgId: string) => SQL;
};

const money = (column: SQL) => sql`to_char(${column} / 100.0, 'FM999999990.00')`;
const iso = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export const exportSections: readonly ExportSection[] = [
  {
    file: 'customers.csv',
    key: 'customers',
    columns: ['firstName', 'lastName', 'email', 'phoneNumber'],
    rows: (orgId) => sql`
      select r.first_name as "firstName", r.last_name as "lastName", lower(r.email) as email,
        coalesce(r.phone, '') as "phoneNumber", lower(r.email) as k1, r.user_id::text as k2
      from roster_items r
      where r.org_id = ${orgId} and not r.deleted and r.email is not null`,
  },
  {
    file: 'tags.csv',
    key: 'tags',
    columns: ['customerEmail', 'tagName'],
    rows: (orgId) => sql`
      select lower(r.email) as "customerEmail", t.tag as "tagName",
        lower(r.email) as k1, lpad(t.position::text, 4, '0') || r.user_id::text as k2
      from roster_items r, unnest(r.tags) with ordinality as t(tag, position)
      where r.org_id = ${orgId} and not r.deleted and r.email is not null`,
  },
  {
    // The contact lists import's shape: one row per member with an address. The lists
    // themselves, empty ones too, are contact-lists.csv (the import needs them made first).
    file: 'contact-list-members.csv',
    key: 'contactListMembers',
    columns: ['customerEmail', 'contactListName'],
    rows: (orgId) => sql`
      select lower(r.email) as "customerEmail", l.name as "contactListName",
        lower(r.email) as k1, lower(l.name) || ' ' || l.id::text as k2
      from contact_list_members m
      join contact_lists l on l.id = m.list_id and l.org_id = m.org_id
      join roster_items r on r.org_id = m.org_id and r.user_id = m.user_id
      where m.org_id = ${orgId} and not r.deleted and r.email is not null`,
  },
  {
    file: 'contact-lists.csv',
    key: 'contactLists',
    columns: ['name', 'createdAt'],
    rows: (orgId) => sql`
      select l.name, ${iso(sql`l.created_at`)} as "createdAt", lower(l.name) as k1, l.id::text as k2
      from contact_lists l where l.org_id = ${orgId}`,
  },
  {
    file: 'credits.csv',
    key: 'credits',
    columns: ['customerEmail', 'productName', 'credits'],
    // The import gives a row's credits in each group of its product: the balance per product
    // is its largest group's (a product's groups are given alike, so usually all of them).
    rows: (orgId) => sql`
      select g.email as "customerEmail", g.name as "productName",
        max(g.balance)::text as credits, g.email as k1, g.product_id::text as k2
      from (
        select lower(r.email) as email, p.id as product_id, p.name, sum(c.delta) as balance
        from punch_card_credits c
        join roster_items r on r.org_id = c.org_id and r.user_id = c.customer_user_id
        join products p on p.id = c.product_id
        where c.org_id = ${orgId} and not c.deleted and r.email is not null
        group by lower(r.email), p.id, p.name, c.group_id
      ) g
      group by g.email, g.product_id, g.name
      having max(g.balance) > 0`,
  },
  {
    // The product assignments import's shape (decision 0073): each subscription that runs (or
    // ended on an agreed day), and each one-time product recorded as paid outside, as a row
    // that records it paid outside the platform — the new organisation cannot charge the old
    // one's cards; change the action to create-customer-subscription-invite to have customers
    // add theirs. A price agreed below the product's is its discount; one above it is not kept.
    file: 'product-assignments.csv',
    key: 'productAssignments',
    columns: importColumns.assignments,
    rows: (orgId) => sql`
      select a."customerEmail", a."productName",
        'start-customer-subscription-for-external-payment' as action,
        a."startDate", a."endDate",
        case when a.off > 0 then 'fixed_amount' else '' end as "discountType",
        case when a.off > 0 then ${money(sql`a.off`)} else '' end as "discountAmount",
        a."customerEmail" as k1, a.k2
      from (
        select lower(r.email) as "customerEmail", p.name as "productName",
          s.started_on::text as "startDate",
          -- Ended early (cancelled before its agreed end): it ended then, not at the end agreed —
          -- the day in the westernmost zone (UTC-12, POSIX 'Etc/GMT+12'), never after the
          -- organisation's own, so it imports as ended wherever the organisation is.
          coalesce((case when s.status = 'cancelled'
            then least(s.ends_on, (s.cancelled_at at time zone 'Etc/GMT+12')::date)
            else s.ends_on end)::text, '') as "endDate",
          p.price_minor - s.price_minor as off, p.name || ' ' || s.id::text as k2
        from subscriptions s
        join roster_items r on r.org_id = s.org_id and r.user_id = s.customer_user_id
        join products p on p.id = s.product_id
        where s.org_id = ${orgId} and not s.deleted and not r.deleted and r.email is not null
          and (s.status <> 'cancelled'
            or least(s.ends_on, (s.cancelled_at at time zone 'Etc/GMT+12')::date) > s.started_on)
        union all
        select lower(r.email), p.name, '', '', p.price_minor - coalesce(v.price_minor, p.price_minor),
          p.name || ' ' || v.id::text
        from product_invites v
        join roster_items r on r.org_id = v.org_id and r.user_id = v.customer_user_id
        join products p on p.id = v.product_id
        where v.org_id = ${orgId} and v.status = 'accepted' and v.subscription_id is null
          and v.action = 'start-customer-subscription-for-external-payment'
          and not r.deleted and r.email is not null
      ) a`,
  },
  {
    file: 'people.csv',
    key: 'people',
    columns: ['firstName', 'lastName', 'email', 'phoneNumber', 'dateOfBirth', 'addedAt'],
    rows: (orgId) => sql`
      select r.first_name as "firstName", r.last_name as "lastName", coalesce(r.email, '') as email,
        coalesce(r.phone, '') as "phoneNumber", coalesce(u.date_of_birth::text, '') as "dateOfBirth",
        ${iso(sql`r.created_at`)} as "addedAt", r.user_id::text as k1, '' as k2
      from roster_items r join users u on u.id = r.user_id
      where r.org_id = ${orgId} and not r.deleted`,
  },
  {
    file: 'customer-notes.csv',
    key: 'customerNotes',
    columns: ['customerEmail', 'customerName', 'author', 'note', 'writtenAt'],
    rows: (orgId) => sql`
      select coalesce(lower(r.email), '') as "customerEmail",
        r.first_name || ' ' || r.last_name as "customerName", n.author_name as author,
        n.body as note, ${iso(sql`n.created_at`)} as "writtenAt",
        ${iso(sql`n.created_at`)} as k1, n.id::text as k2
      from customer_notes n
      join roster_items r on r.org_id = n.org_id and r.user_id = n.user_id
      where n.org_id = ${orgId} and not n.deleted`,
  },
  {
    file: 'customer-metrics.csv',
    key: 'customerMetrics',
    columns: ['customerEmail', 'customerName', 'metric', 'value', 'measuredOn', 'author'],
    rows: (orgId) => sql`
      select coalesce(lower(r.email), '') as "customerEmail",
        r.first_name || ' ' || r.last_name as "customerName", m.name as metric, m.value,
        m.measured_on::text as "measuredOn", m.author_name as author,
        m.measured_on::text as k1, m.id::text as k2
      from customer_metrics m
      join roster_items r on r.org_id = m.org_id and r.user_id = m.user_id
      where m.org_id = ${orgId}`,
  },
  {
    file: 'families.csv',
    key: 'families',
    columns: ['guardianEmail', 'guardianName', 'childEmail', 'childName', 'confirmed'],
    rows: (orgId) => sql`
      select coalesce(lower(g.email), '') as "guardianEmail",
        g.first_name || ' ' || g.last_name as "guardianName",
        coalesce(lower(c.email), '') as "childEmail", c.first_name || ' ' || c.last_name as "childName",
        case when l.confirmed_at is null then 'no' else 'yes' end as confirmed,
        l.guardian_user_id::text as k1, l.child_user_id::text as k2
      from guardian_links l
      join roster_items g on g.org_id = ${orgId} and g.user_id = l.guardian_user_id and not g.deleted
      join roster_items c on c.org_id = ${orgId} and c.user_id = l.child_user_id and not c.deleted
      where l.org_id = ${orgId} or l.org_id is null`,
  },
  {
    file: 'products.csv',
    key: 'products',
    columns: [
      'name',
      'description',
      'type',
      'schedule',
      'price',
      'startupFee',
      'state',
      'stripeProductId',
    ],
    rows: (orgId) => sql`
      select p.name, coalesce(p.description, '') as description, p.type, p.schedule,
        ${money(sql`p.price_minor`)} as price, ${money(sql`coalesce(p.startup_fee_minor, 0)`)} as "startupFee",
        p.state, coalesce(p.processor_product_id, '') as "stripeProductId",
        p.name as k1, p.id::text as k2
      from products p where p.org_id = ${orgId} and not p.deleted`,
  },
  {
    file: 'coupons.csv',
    key: 'coupons',
    columns: [
      'name',
      'type',
      'amount',
      'durationType',
      'durationInMonths',
      'numberOfRedemptions',
      'timesRedeemed',
      'archived',
    ],
    rows: (orgId) => sql`
      select c.name, c.type, c.amount::text as amount, c.duration_type as "durationType",
        coalesce(c.duration_in_months::text, '') as "durationInMonths",
        coalesce(c.number_of_redemptions::text, '') as "numberOfRedemptions",
        c.times_redeemed::text as "timesRedeemed",
        case when c.archived_at is null then 'no' else 'yes' end as archived,
        c.name as k1, c.id::text as k2
      from coupons c where c.org_id = ${orgId}`,
  },
  {
    file: 'subscriptions.csv',
    key: 'subscriptions',
    columns: [
      'customerEmail',
      'customerName',
      'productName',
      'price',
      'status',
      'startedOn',
      'nextBillingDate',
      'externalPayments',
      'cancelledAt',
    ],
    rows: (orgId) => sql`
      select coalesce(lower(u.email), '') as "customerEmail", u.first_name || ' ' || u.last_name as "customerName",
        s.product_name as "productName", ${money(sql`s.price_minor`)} as price, s.status,
        coalesce(s.started_on::text, '') as "startedOn",
        coalesce(s.next_billing_date::text, '') as "nextBillingDate",
        case when s.external_payments then 'yes' else 'no' end as "externalPayments",
        coalesce(${iso(sql`s.cancelled_at`)}, '') as "cancelledAt",
        ${iso(sql`s.created_at`)} as k1, s.id::text as k2
      from subscriptions s join users u on u.id = s.customer_user_id
      where s.org_id = ${orgId} and not s.deleted`,
  },
  {
    file: 'invoices.csv',
    key: 'invoices',
    columns: [
      'customerEmail',
      'customerName',
      'productName',
      'total',
      'currency',
      'status',
      'createdAt',
      'paidAt',
    ],
    rows: (orgId) => sql`
      select coalesce(lower(u.email), '') as "customerEmail", u.first_name || ' ' || u.last_name as "customerName",
        i.product_name as "productName", ${money(sql`i.total_minor`)} as total, i.currency, i.status,
        ${iso(sql`i.created_at`)} as "createdAt", coalesce(${iso(sql`i.paid_at`)}, '') as "paidAt",
        ${iso(sql`i.created_at`)} as k1, i.id::text as k2
      from invoices i join users u on u.id = i.customer_user_id
      where i.org_id = ${orgId} and not i.deleted`,
  },
  {
    file: 'time-entries.csv',
    key: 'timeEntries',
    columns: ['staffEmail', 'staffName', 'start', 'end', 'breakMinutes'],
    rows: (orgId) => sql`
      select coalesce(lower(u.email), '') as "staffEmail", u.first_name || ' ' || u.last_name as "staffName",
        ${iso(sql`t.start_time`)} as start, coalesce(${iso(sql`t.end_time`)}, '') as "end",
        coalesce((select round(sum(extract(epoch from ((b->>'endTime')::timestamptz - (b->>'startTime')::timestamptz)) / 60))
          from jsonb_array_elements(t.break_intervals) b where b->>'endTime' is not null), 0)::text as "breakMinutes",
        ${iso(sql`t.start_time`)} as k1, t.id::text as k2
      from time_entries t join users u on u.id = t.user_id
      where t.org_id = ${orgId} and not t.deleted`,
  },
  {
    file: 'bookings.csv',
    key: 'bookings',
    columns: [
      'customerEmail',
      'customerName',
      'class',
      'startsAt',
      'status',
      'paidWith',
      'requestedAt',
      'checkedInAt',
    ],
    rows: (orgId) => sql`
      select coalesce(lower(u.email), '') as "customerEmail", u.first_name || ' ' || u.last_name as "customerName",
        coalesce(o.title, '') as class, coalesce(${iso(sql`o.starts_at`)}, '') as "startsAt", b.status,
        coalesce(b.paid_with, '') as "paidWith", coalesce(${iso(sql`b.requested_at`)}, '') as "requestedAt",
        coalesce(${iso(sql`b.checked_in_at`)}, '') as "checkedInAt",
        b.id::text as k1, '' as k2
      from bookings b join users u on u.id = b.customer_user_id
      left join class_occurrences o on o.org_id = b.org_id and o.id::text = b.occurrence_id
      where b.org_id = ${orgId} and not b.deleted`,
  },
  {
    file: 'branding.csv',
    key: 'branding',
    columns: ['appName', 'shortName', 'themeColor', 'backgroundColor'],
    rows: (orgId) => sql`
      select coalesce(b.app_name, '') as "appName", coalesce(b.short_name, '') as "shortName",
        coalesce(b.theme_color, '') as "themeColor", coalesce(b.background_color, '') as "backgroundColor",
        b.id::text as k1, '' as k2
      from org_branding b where b.org_id = ${orgId} and not b.deleted`,
  },
];
