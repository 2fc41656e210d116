import type {
  CreateOrganizationInput,
  SetOrganizationTimezoneInput,
} from '@platform/schema/organizations/organizations.zod';
import { orgRegion, type OrgRegion } from '@platform/schema/organizations/org-region.rules';
import type { Db } from '../db/open-database.ts';
import {
  findOrganization,
  insertOrganizationWithOwner,
  setOrganizationTimezone,
} from './organizations.repository.ts';

/** spec §2 'create an organisation' modal: the creator becomes staff with every claim. */
export async function createOrganization(
  db: Db,
  ownerUserId: string,
  input: CreateOrganizationInput,
) {
  return db.transaction((tx) =>
    insertOrganizationWithOwner(tx, ownerUserId, {
      label: input.companyName,
      companyLocation: input.companyLocation,
    }),
  );
}

/** The caller has checked manage-org-settings; the zone was checked by the input schema. */
export async function changeOrganizationTimezone(db: Db, input: SetOrganizationTimezoneInput) {
  await setOrganizationTimezone(db, input.orgId, input.timezone);
  return { orgId: input.orgId, timezone: input.timezone };
}

/** The organisation's country, locale and zone (decision 0051): how its numbers and times read. */
export async function organizationRegion(db: Db, orgId: string): Promise<OrgRegion> {
  const org = await findOrganization(db, orgId);
  return orgRegion(org?.attributes.timezone);
}
