import {
  brandingPaths,
  type BrandingSettings,
  type BrandingSettingsResponse,
} from '@platform/schema/branding/branding.zod';
import type { Db, Tx } from '../db/open-database.ts';
import { NotFound } from '../plugins/domain-errors.ts';
import { notifyChange } from '../sync/change-feed.ts';
import { defaultManifestData, type ManifestData } from '../web-manifest/render-manifest.ts';
import {
  deleteLogo,
  findBranding,
  findLogoSource,
  lockBranding,
  saveLogo,
  setTimezone,
  toPublicBranding,
  updateBrandingRow,
  type OrgBrandingRow,
} from './branding.repository.ts';
import { makeBrandIcons } from './logo-images.ts';

// The replication registry (sync/collections) reads stored rows as documents through here.
export { orgBrandingToDoc } from './branding.repository.ts';

const unknownOrganization = () => new NotFound('This organization does not exist.');

export async function getBrandingSettings(
  db: Db,
  orgId: string,
): Promise<BrandingSettingsResponse> {
  const row = await findBranding(db, orgId);
  if (!row) throw unknownOrganization();
  return {
    ...toPublicBranding(row),
    timezone: row.timezone,
    customerAppPath: brandingPaths.customerApp(orgId),
  };
}

/** Every member's device replicates the branding: tell all of them (no owner list). */
const announce = (tx: Tx, orgId: string) =>
  notifyChange(tx, { collection: 'org-branding', orgId, ownerIds: [] });

export async function saveBrandingSettings(
  db: Db,
  orgId: string,
  settings: BrandingSettings,
): Promise<BrandingSettingsResponse> {
  await db.transaction(async (tx) => {
    // Locked: a logo uploaded meanwhile is either before this (and redrawn here) or after.
    const current = await lockBranding(tx, orgId);
    if (!current) throw unknownOrganization();
    // The maskable icon is drawn on the background colour: a new colour redraws it.
    const source =
      current.logoVersion && current.backgroundColor !== settings.backgroundColor
        ? await findLogoSource(tx, orgId)
        : undefined;
    const icons = source ? await makeBrandIcons(source, settings.backgroundColor) : undefined;
    if (source && icons) await saveLogo(tx, orgId, source, icons);
    await updateBrandingRow(tx, orgId, {
      appName: settings.appName,
      shortName: settings.shortName,
      themeColor: settings.themeColor,
      backgroundColor: settings.backgroundColor,
      ...(icons ? { logoVersion: icons.version } : {}),
    });
    await setTimezone(tx, orgId, settings.timezone);
    await announce(tx, orgId);
  });
  return getBrandingSettings(db, orgId);
}

export async function uploadLogo(
  db: Db,
  orgId: string,
  source: Buffer,
): Promise<BrandingSettingsResponse> {
  await db.transaction(async (tx) => {
    const current = await lockBranding(tx, orgId);
    if (!current) throw unknownOrganization();
    const icons = await makeBrandIcons(source, current.backgroundColor);
    await saveLogo(tx, orgId, source, icons);
    await updateBrandingRow(tx, orgId, { logoVersion: icons.version });
    await announce(tx, orgId);
  });
  return getBrandingSettings(db, orgId);
}

export async function removeLogo(db: Db, orgId: string): Promise<BrandingSettingsResponse> {
  await db.transaction(async (tx) => {
    if (!(await lockBranding(tx, orgId))) throw unknownOrganization();
    await deleteLogo(tx, orgId);
    await updateBrandingRow(tx, orgId, { logoVersion: null });
    await announce(tx, orgId);
  });
  return getBrandingSettings(db, orgId);
}

/** The organisation's installable app: its name, colours and icons, opening on its dashboard. */
export function brandedManifestData(row: OrgBrandingRow): ManifestData {
  const home = brandingPaths.customerApp(row.orgId);
  return {
    name: row.appName,
    shortName: row.shortName,
    description: `${row.appName}: book, pay and manage your family's account — even offline.`,
    startUrl: home,
    scope: home,
    themeColor: row.themeColor,
    backgroundColor: row.backgroundColor,
    iconBase: row.logoVersion
      ? `/org-assets/${row.orgId}/${row.logoVersion}`
      : defaultManifestData.iconBase,
  };
}
