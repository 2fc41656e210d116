import { claims as allClaims, type Claim } from '../organizations/claims.ts';

/**
 * The Team section (issue 14): the spec's claims (§6) in plain words, grouped as a person
 * thinks of their job, and four roles that are just named sets of them. A member holds claims,
 * never a role: the role shown is the one whose claims match exactly, else "Custom".
 */
export type ClaimGroup = {
  label: string;
  claims: ReadonlyArray<{ claim: Claim; label: string }>;
};

export const claimGroups: readonly ClaimGroup[] = [
  {
    label: 'Time clock',
    claims: [
      { claim: 'manage-own-time-tracking', label: 'Clock in and out, and see their own hours' },
      {
        claim: 'manage-others-time-tracking',
        label: "See and correct everyone's hours, export payroll",
      },
      { claim: 'manage-kiosk', label: 'Turn a device into the front-desk kiosk' },
    ],
  },
  {
    label: 'Customers',
    claims: [
      { claim: 'view-customers', label: 'See and edit the customer list' },
      { claim: 'manage-leads', label: 'Follow up leads' },
    ],
  },
  {
    label: 'Sales and schedule',
    claims: [
      { claim: 'manage-point-of-sale', label: 'Sell at the point of sale' },
      { claim: 'manage-products', label: 'Create and change products and prices' },
      { claim: 'manage-schedule', label: 'Manage the schedule and bookings' },
      { claim: 'manage-forms', label: 'Build forms' },
    ],
  },
  {
    label: 'Website and content',
    claims: [
      { claim: 'manage-sites', label: 'Edit the website' },
      { claim: 'manage-in-app-pages', label: 'Edit pages in the customer app' },
      { claim: 'manage-cms', label: 'Edit services, success stories and staff profiles' },
      { claim: 'manage-blog-posts', label: 'Write blog posts' },
      { claim: 'manage-media-library', label: 'Manage the media library' },
    ],
  },
  {
    label: 'Marketing',
    claims: [
      { claim: 'manage-automations', label: 'Set up automations' },
      { claim: 'manage-marketing-copilot', label: 'Use the marketing copilot' },
      { claim: 'manage-lead-magnets', label: 'Create lead magnets' },
      { claim: 'manage-emails', label: 'Write email and SMS templates' },
      { claim: 'manage-reviews', label: 'Answer reviews' },
    ],
  },
  {
    label: 'Organization',
    claims: [
      { claim: 'manage-org-settings', label: "Change the organization's settings and time zone" },
      { claim: 'manage-org-branding', label: "Change the customer app's name, colours and logo" },
      { claim: 'manage-org-integrations', label: 'Connect payments and other services' },
      { claim: 'manage-org-reports', label: 'See reports' },
      { claim: 'manage-org-staff', label: 'Invite staff and change what they may do' },
    ],
  },
];

/** The claim that makes someone a manager of the team: there is always one who holds it. */
export const TEAM_CLAIM: Claim = 'manage-org-staff';

export const roleIds = ['owner', 'manager', 'front-desk', 'coach'] as const;
export type RoleId = (typeof roleIds)[number];

export type Role = { id: RoleId; label: string; description: string; claims: readonly Claim[] };

const except = (...left: Claim[]) => allClaims.filter((claim) => !left.includes(claim));

export const roles: Record<RoleId, Role> = {
  owner: {
    id: 'owner',
    label: 'Owner',
    description: 'Everything, including the team and connected services.',
    claims: allClaims,
  },
  manager: {
    id: 'manager',
    label: 'Manager',
    description: 'Runs the business day to day: everything except the team and connected services.',
    claims: except('manage-org-staff', 'manage-org-integrations'),
  },
  'front-desk': {
    id: 'front-desk',
    label: 'Front desk',
    description:
      'Welcomes customers: the customer list, sales, the schedule, the kiosk and their own hours.',
    claims: [
      'manage-own-time-tracking',
      'manage-kiosk',
      'view-customers',
      'manage-leads',
      'manage-point-of-sale',
      'manage-schedule',
    ],
  },
  coach: {
    id: 'coach',
    label: 'Coach',
    description:
      'Works with customers: the customer list, the schedule, forms and their own hours.',
    claims: ['manage-own-time-tracking', 'view-customers', 'manage-schedule', 'manage-forms'],
  },
};

export const CUSTOM_ROLE_LABEL = 'Custom';

/** Claims in the order of `claims` (the spec's), without repeats or unknown names. */
export function normaliseClaims(held: readonly string[]): Claim[] {
  return allClaims.filter((claim) => held.includes(claim));
}

/** The role whose claims are exactly these, or null (shown as "Custom"). */
export function roleOf(held: readonly string[]): RoleId | null {
  const mine = normaliseClaims(held);
  const match = roleIds.find((id) => {
    const wanted = roles[id].claims;
    return wanted.length === mine.length && wanted.every((claim) => mine.includes(claim));
  });
  return match ?? null;
}

export function roleLabelOf(held: readonly string[]): string {
  const id = roleOf(held);
  return id ? roles[id].label : CUSTOM_ROLE_LABEL;
}

/** The plain-words label of a claim ("Invite staff and change what they may do"). */
export function claimLabel(claim: Claim): string {
  for (const group of claimGroups)
    for (const entry of group.claims) if (entry.claim === claim) return entry.label;
  return claim;
}

/**
 * No one gives what they do not hold: the claims a change adds must all be the actor's own.
 * So a member never raises their own claims, nor someone else's past their own. Answers the
 * claims that would be added without the actor holding them.
 */
export function claimsBeyondActor(
  actorClaims: readonly string[],
  before: readonly string[],
  after: readonly string[],
): Claim[] {
  return normaliseClaims(after).filter(
    (claim) => !before.includes(claim) && !actorClaims.includes(claim),
  );
}

/** A member who can do something the actor cannot is out of the actor's reach. */
export function outranks(actorClaims: readonly string[], memberClaims: readonly string[]): boolean {
  return normaliseClaims(memberClaims).some((claim) => !actorClaims.includes(claim));
}

/**
 * The last owner stays: after a change, someone must still hold the team claim, or nobody
 * could ever invite or change anyone again. `members` are the team's claims as they stand
 * now; `change` replaces one member's claims (null: the member leaves).
 */
export function leavesTeamWithoutManager(
  members: ReadonlyArray<{ userId: string; claims: readonly string[] }>,
  change: { userId: string; claims: readonly string[] | null },
): boolean {
  const after = members.map((member) =>
    member.userId === change.userId ? (change.claims ?? []) : member.claims,
  );
  return !after.some((held) => held.includes(TEAM_CLAIM));
}
