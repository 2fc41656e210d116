import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { claims, timeTrackingClaims } from '@platform/schema/organizations/claims';
import { guardianLinks, memberships, organizations, rosterItems, users } from '@platform/schema/db';
import type { Db } from '../sync-server/src/db/open-database.ts';
import { saveBrandingSettings, uploadLogo } from '../sync-server/src/branding/branding.service.ts';
import { sandboxProcessor } from '../sync-server/src/adapters/payments/sandbox.ts';
import { createCoupon, createProduct } from '../sync-server/src/payments/catalogue.service.ts';
import { createClass } from '../sync-server/src/schedule/schedule.service.ts';
import {
  createAppointmentType,
  saveStaffHours,
} from '../sync-server/src/schedule/appointments.service.ts';
import { addDays, dayKeyOf } from '@platform/schema/time-tracking/org-calendar';

export const DEMO_PASSWORD = 'demo-pass-2026';

export const demoLogins = {
  owner: {
    email: 'owner@zipper.demo',
    name: 'Olivia Owner',
    note: 'every claim of Zipper Fitness',
  },
  staff: { email: 'staff@zipper.demo', name: 'Sam Staff', note: 'time tracking only' },
  parent: {
    email: 'parent@zipper.demo',
    name: 'Pat Parent',
    note: 'customer with a child account (Casey)',
  },
  jobber: {
    email: 'owner@jobber.demo',
    name: 'Jordan Jobber',
    note: 'owner on the Jobber platform',
  },
  admin: { email: 'admin@platform.demo', name: 'Ada Admin', note: 'platform admin' },
} as const;

export type DemoSeed = {
  zipperOrgId: string;
  jobberOrgId: string;
  userIds: Record<keyof typeof demoLogins | 'child', string>;
};

/** Seeds the demo organisations once; a second call finds them and changes nothing. */
export async function seedDemo(db: Db): Promise<{ created: boolean; seed: DemoSeed }> {
  const existing = await db.select().from(users).where(eq(users.email, demoLogins.owner.email));
  if (existing.length > 0) return { created: false, seed: await readSeed(db) };

  const passwordHash = await hash(DEMO_PASSWORD);
  const seed = await db.transaction(async (tx) => {
    const [zipper] = await tx
      .insert(organizations)
      .values({
        label: 'Zipper Fitness',
        platform: 'zipper',
        attributes: { coachingBusinessName: 'Zipper Fitness', timezone: 'America/New_York' },
      })
      .returning();
    const [jobber] = await tx
      .insert(organizations)
      .values({
        label: 'Jobber Lawn & Fitness',
        platform: 'jobber',
        attributes: { coachingBusinessName: 'Jobber Lawn & Fitness', timezone: 'America/Chicago' },
      })
      .returning();
    if (!zipper || !jobber) throw new Error('seed: organisations not created');

    const person = async (key: keyof typeof demoLogins, role: 'user' | 'admin' = 'user') => {
      const [first = '', last = ''] = demoLogins[key].name.split(' ');
      const [row] = await tx
        .insert(users)
        .values({
          email: demoLogins[key].email,
          passwordHash,
          firstName: first,
          lastName: last,
          role,
          claimedAt: new Date(),
        })
        .returning({ id: users.id });
      if (!row) throw new Error(`seed: ${key} not created`);
      return row.id;
    };
    const owner = await person('owner');
    const staff = await person('staff');
    const parent = await person('parent');
    const jobberOwner = await person('jobber');
    const admin = await person('admin', 'admin');
    const [child] = await tx
      .insert(users)
      // No email: Casey's account is her family's (decision 0035).
      .values({ firstName: 'Casey', lastName: 'Parent', createdByUserId: parent })
      .returning({ id: users.id });
    if (!child) throw new Error('seed: child not created');

    await tx.insert(memberships).values([
      { orgId: zipper.id, userId: owner, kind: 'staff', claims: [...claims] },
      {
        orgId: zipper.id,
        userId: staff,
        kind: 'staff',
        claims: [...timeTrackingClaims.slice(0, 1)],
      },
      { orgId: zipper.id, userId: parent, kind: 'customer' },
      { orgId: zipper.id, userId: child.id, kind: 'customer' },
      { orgId: jobber.id, userId: jobberOwner, kind: 'staff', claims: [...claims] },
    ]);
    const now = new Date();
    await tx.insert(guardianLinks).values({
      guardianUserId: parent,
      childUserId: child.id,
      orgId: zipper.id,
      createdByUserId: parent,
      confirmedAt: now,
      confirmedByUserId: parent,
    });
    // The family is on Zipper's customer list (the roster replicates to the front desk).
    await tx.insert(rosterItems).values([
      {
        orgId: zipper.id,
        userId: parent,
        firstName: 'Pat',
        lastName: 'Parent',
        email: demoLogins.parent.email,
        phone: '+12025550142',
        tags: ['family'],
        updatedAt: now,
      },
      {
        orgId: zipper.id,
        userId: child.id,
        firstName: 'Casey',
        lastName: 'Parent',
        email: null,
        tags: ['kids-class'],
        updatedAt: now,
      },
    ]);
    return {
      zipperOrgId: zipper.id,
      jobberOrgId: jobber.id,
      userIds: { owner, staff, parent, jobber: jobberOwner, admin, child: child.id },
    };
  });
  // Zipper's customer app wears its own name, colours and logo (issue 5 branding).
  await saveBrandingSettings(db, seed.zipperOrgId, {
    appName: 'Zipper Fitness',
    shortName: 'Zipper',
    themeColor: '#c2410c',
    backgroundColor: '#fff7ed',
    timezone: 'America/New_York',
  });
  await uploadLogo(db, seed.zipperOrgId, Buffer.from(zipperLogoSvg));
  const catalogue = await seedDemoCatalogue(db, seed);
  await seedDemoSchedule(db, seed, catalogue);
  return { created: true, seed };
}

/**
 * What Zipper Fitness sells in the demo (issue 15), made through the catalogue service at the
 * sandbox processor: a monthly membership with a start-up fee, a class pack with a punch card,
 * a single session, and a welcome coupon — enough to charge the demo parent at once.
 */
async function seedDemoCatalogue(db: Db, seed: DemoSeed) {
  const processor = sandboxProcessor(db);
  const owner = { orgId: seed.zipperOrgId, userId: seed.userIds.owner };
  const membership = await createProduct(db, processor, owner, {
    name: 'Unlimited membership',
    description: 'Every class, every week.',
    type: 'recurring',
    schedule: 'month',
    priceMinor: 12_900,
    startupFeeMinor: 2_500,
  });
  const classesGroup = { id: crypto.randomUUID(), name: 'Classes', credits: 10 };
  await createProduct(db, processor, owner, {
    name: '10-class pack',
    type: 'one-time',
    schedule: 'one-time',
    priceMinor: 15_000,
    punchCardConfiguration: { groups: [classesGroup] },
  });
  await createProduct(db, processor, owner, {
    name: 'Personal training session',
    type: 'one-time',
    schedule: 'one-time',
    priceMinor: 7_500,
  });
  await createCoupon(db, owner, {
    name: 'WELCOME10',
    type: 'percentage',
    amount: 10,
    numberOfRedemptions: 100,
    appliesToProductIds: [membership.id],
    duration: { durationType: 'once', durationInMonths: null },
  });
  return { membershipId: membership.id, classesGroupId: classesGroup.id };
}

/**
 * Zipper's timetable (issue 16), from the day after seeding: yoga three mornings a week (the
 * membership or a class-pack credit pays), a free Saturday run, and a small free kids' class.
 */
async function seedDemoSchedule(
  db: Db,
  seed: DemoSeed,
  catalogue: { membershipId: string; classesGroupId: string },
) {
  const owner = { orgId: seed.zipperOrgId, userId: seed.userIds.owner };
  const tomorrow = addDays(dayKeyOf(Date.now(), 'America/New_York'), 1);
  const twelveWeeks = { kind: 'count' as const, count: 36 };
  await createClass(db, owner, {
    kind: 'class',
    title: 'Morning yoga',
    description: 'Flow and stretch before work. Mats provided.',
    location: 'Studio 1',
    coachUserId: seed.userIds.owner,
    capacity: 12,
    priceMinor: 2_000,
    entitlingProductIds: [catalogue.membershipId],
    punchCardGroupIds: [catalogue.classesGroupId],
    firstStart: `${tomorrow}T07:00`,
    durationMinutes: 60,
    recurrence: { weekdays: ['MO', 'WE', 'FR'], intervalWeeks: 1, end: twelveWeeks },
  });
  await createClass(db, owner, {
    kind: 'event',
    title: 'Saturday community run',
    description: '5 km around the park, all paces welcome.',
    location: 'Front door',
    coachUserId: null,
    capacity: 30,
    priceMinor: null,
    entitlingProductIds: [],
    punchCardGroupIds: [],
    firstStart: `${tomorrow}T09:00`,
    durationMinutes: 60,
    recurrence: { weekdays: ['SA'], intervalWeeks: 1, end: { kind: 'count', count: 12 } },
  });
  await createClass(db, owner, {
    kind: 'class',
    title: 'Kids climbing',
    description: 'Bouldering for ages 6–12.',
    location: 'Climbing wall',
    coachUserId: seed.userIds.staff,
    capacity: 6,
    priceMinor: null,
    entitlingProductIds: [],
    punchCardGroupIds: [],
    firstStart: `${tomorrow}T16:30`,
    durationMinutes: 60,
    recurrence: { weekdays: ['TU', 'TH'], intervalWeeks: 1, end: { kind: 'count', count: 24 } },
  });
  // One-to-one sessions with Sam on weekdays: the slots leave out the climbing class Sam leads.
  await saveStaffHours(db, owner, seed.userIds.staff, {
    weekly: (['MO', 'TU', 'WE', 'TH', 'FR'] as const).map((weekday) => ({
      weekday,
      from: '09:00',
      to: '18:00',
    })),
    exceptions: [],
  });
  await createAppointmentType(db, owner, {
    title: 'Personal training',
    description: 'A one-to-one session: technique, a plan, and the questions you have.',
    location: 'Studio 2',
    durationMinutes: 45,
    bufferMinutes: 15,
    priceMinor: 4_500,
    staffUserIds: [seed.userIds.staff],
    entitlingProductIds: [],
    punchCardGroupIds: [catalogue.classesGroupId],
  });
}

/** Zipper Fitness's demo logo: a white Z on an orange tile. */
const zipperLogoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<rect width="512" height="512" rx="96" fill="#c2410c"/>
<path d="M150 150h212v40L206 322h156v40H150v-40l156-132H150z" fill="#fff"/>
</svg>`;

async function readSeed(db: Db): Promise<DemoSeed> {
  const idOf = async (email: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? '';
  const orgId = async (label: string) =>
    (
      await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.label, label))
    )[0]?.id ?? '';
  const parent = await idOf(demoLogins.parent.email);
  const [link] = await db
    .select()
    .from(guardianLinks)
    .where(eq(guardianLinks.guardianUserId, parent));
  return {
    zipperOrgId: await orgId('Zipper Fitness'),
    jobberOrgId: await orgId('Jobber Lawn & Fitness'),
    userIds: {
      owner: await idOf(demoLogins.owner.email),
      staff: await idOf(demoLogins.staff.email),
      parent,
      jobber: await idOf(demoLogins.jobber.email),
      admin: await idOf(demoLogins.admin.email),
      child: link?.childUserId ?? '',
    },
  };
}

export function printDemoLogins(url: string, options: { devTools: boolean }): void {
  const lines = Object.values(demoLogins).map(
    (l) => `  ${l.email.padEnd(22)} ${DEMO_PASSWORD}   (${l.name}: ${l.note})`,
  );
  const mailbox = options.devTools
    ? `  Development mailbox: ${url}/dev/mailbox\n`
    : '  Development tools are off (DEV_TOOLS=1 turns them on, on a loopback host).\n';
  console.log(
    `\n  Coaching Platform is running at ${url}\n\n  Demo logins (all share one password):\n${lines.join('\n')}\n${mailbox}`,
  );
}
