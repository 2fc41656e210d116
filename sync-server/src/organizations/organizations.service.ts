import type {
  CreateOrganizationInput,
  SetOrganizationTimezoneInput,
} from '@platform/schema/organizations/organizations.zod';
import type { Claim } from '@platform/schema/organizations/claims';
import type { OrgHome } from '@platform/schema/organizations/org-home.zod';
import { orgRegion, type OrgRegion } from '@platform/schema/organizations/org-region.rules';
import type { Db, Tx } from '../db/open-database.ts';
import { readOrgHomeCounts } from './org-home.repository.ts';
import {
  defaultWaiverText,
  type Waiver,
  type WaiverInput,
} from '@platform/schema/organizations/documents.zod';
import { NotFound } from '../plugins/domain-errors.ts';
import {
  findOrganization,
  insertOrganizationWithOwner,
  saveWaiverText,
  setOrganizationTimezone,
} from './organizations.repository.ts';

/** spec §2 'create an organisation' modal: the creator becomes staff with every claim. */
export async function createOrganization(
  db: Db,
  ownerUserId: string,
  input: CreateOrganizationInput,
) {
  return db.transaction((tx) => createOrganizationIn(tx, ownerUserId, input));
}

/** The same inside the caller's transaction: a signup that creates its company too. */
export async function createOrganizationIn(
  tx: Tx,
  ownerUserId: string,
  input: CreateOrganizationInput,
) {
  return insertOrganizationWithOwner(tx, ownerUserId, {
    label: input.companyName,
    companyLocation: input.companyLocation,
  });
}

// Other features read an organisation as it is stored, through here (decision 0053).
export { findOrganization };

/** The caller has checked manage-org-settings; the zone was checked by the input schema. */
export async function changeOrganizationTimezone(db: Db, input: SetOrganizationTimezoneInput) {
  await setOrganizationTimezone(db, input.orgId, input.timezone);
  return { orgId: input.orgId, timezone: input.timezone };
}

/**
 * The owner's home (issue 14): setup steps and today's figures, each only for the claims that
 * cover it — a time-only employee learns nothing about customers or the team.
 */
export async function readOrgHome(
  db: Db,
  orgId: string,
  held: readonly string[],
): Promise<OrgHome> {
  const counts = await readOrgHomeCounts(db, orgId);
  const may = (claim: Claim) => held.includes(claim);
  return {
    setup: {
      branding: may('manage-org-branding') ? counts.brandingChanged : null,
      team: may('manage-org-staff') ? counts.staffMembers > 1 : null,
      customers: may('view-customers') ? counts.customers > 0 : null,
    },
    figures: {
      onTheClock: may('manage-others-time-tracking') ? counts.onTheClock : null,
      newCustomersThisWeek: may('view-customers') ? counts.newCustomersThisWeek : null,
      customers: may('view-customers') ? counts.customers : null,
    },
  };
}

/** The waiver of liability customers agree to at signup: the organisation's, or the platform's. */
export async function readWaiver(db: Db, orgId: string): Promise<Waiver> {
  const org = await findOrganization(db, orgId);
  if (!org) throw new NotFound('This organization does not exist.');
  const own = org.attributes.waiverOfLiability;
  return { orgLabel: org.label, text: own ?? defaultWaiverText, isDefault: own === undefined };
}

export async function changeWaiver(
  db: Db,
  orgId: string,
  actorUserId: string,
  input: WaiverInput,
): Promise<Waiver> {
  await saveWaiverText(db, { orgId, actorUserId, text: input.text === '' ? null : input.text });
  return readWaiver(db, orgId);
}

/** The organisation's country, locale and zone (decision 0051): how its numbers and times read. */
export async function organizationRegion(db: Db, orgId: string): Promise<OrgRegion> {
  const org = await findOrganization(db, orgId);
  return orgRegion(org?.attributes.timezone);
}
