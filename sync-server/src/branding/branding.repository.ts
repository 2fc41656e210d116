import { and, eq, sql } from 'drizzle-orm';
import { orgBranding, orgLogos, organizations } from '@platform/schema/db';
import {
  brandingPaths,
  type BrandIconFile,
  type OrgBrandingDoc,
  type PublicBranding,
} from '@platform/schema/branding/branding.zod';
import { DEFAULT_ORG_TIMEZONE } from '@platform/schema/organizations/organizations.zod';
import type { Db, Tx } from '../db/open-database.ts';
import type { WireDoc } from '../sync/collection-definition.ts';
import type { BrandIcons } from './logo-images.ts';

export type OrgBrandingRow = typeof orgBranding.$inferSelect;

export const logoUrlOf = (row: Pick<OrgBrandingRow, 'orgId' | 'logoVersion'>) =>
  row.logoVersion ? brandingPaths.icon(row.orgId, row.logoVersion, 'icon-192.png') : null;

export function orgBrandingToDoc(row: OrgBrandingRow): WireDoc<OrgBrandingDoc> {
  return {
    id: row.id,
    orgId: row.orgId,
    appName: row.appName,
    shortName: row.shortName,
    themeColor: row.themeColor,
    backgroundColor: row.backgroundColor,
    logoUrl: logoUrlOf(row),
    updatedAt: row.updatedAt.toISOString(),
    _deleted: row.deleted,
  };
}

export function toPublicBranding(row: OrgBrandingRow): PublicBranding {
  return {
    orgId: row.orgId,
    appName: row.appName,
    shortName: row.shortName,
    themeColor: row.themeColor,
    backgroundColor: row.backgroundColor,
    logoUrl: logoUrlOf(row),
    manifestUrl: brandingPaths.manifest(row.orgId),
  };
}

export async function findBranding(db: Db, orgId: string) {
  const [row] = await db
    .select({ branding: orgBranding, attributes: organizations.attributes })
    .from(orgBranding)
    .innerJoin(organizations, eq(organizations.id, orgBranding.orgId))
    .where(and(eq(orgBranding.orgId, orgId), eq(orgBranding.deleted, false)));
  if (!row) return undefined;
  return { ...row.branding, timezone: row.attributes.timezone ?? DEFAULT_ORG_TIMEZONE };
}

/** The branding row, locked until the transaction ends: branding changes run one at a time. */
export async function lockBranding(tx: Tx, orgId: string): Promise<OrgBrandingRow | undefined> {
  const [row] = await tx
    .select()
    .from(orgBranding)
    .where(and(eq(orgBranding.orgId, orgId), eq(orgBranding.deleted, false)))
    .for('update');
  return row;
}

export async function updateBrandingRow(
  tx: Tx,
  orgId: string,
  set: Partial<
    Pick<OrgBrandingRow, 'appName' | 'shortName' | 'themeColor' | 'backgroundColor' | 'logoVersion'>
  >,
) {
  await tx
    .update(orgBranding)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(orgBranding.orgId, orgId));
}

export async function setTimezone(tx: Tx, orgId: string, timezone: string) {
  await tx
    .update(organizations)
    .set({ attributes: sql`${organizations.attributes} || ${JSON.stringify({ timezone })}::jsonb` })
    .where(eq(organizations.id, orgId));
}

export async function findLogoSource(db: Db | Tx, orgId: string): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ source: orgLogos.source })
    .from(orgLogos)
    .where(eq(orgLogos.orgId, orgId));
  return row?.source;
}

export async function saveLogo(tx: Tx, orgId: string, source: Buffer, icons: BrandIcons) {
  const values = {
    version: icons.version,
    source,
    icon192: icons.icon192,
    icon512: icons.icon512,
    maskable512: icons.maskable512,
  };
  await tx
    .insert(orgLogos)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: orgLogos.orgId, set: values });
}

export async function deleteLogo(tx: Tx, orgId: string) {
  await tx.delete(orgLogos).where(eq(orgLogos.orgId, orgId));
}

const iconColumn = {
  'icon-192.png': orgLogos.icon192,
  'icon-512.png': orgLogos.icon512,
  'icon-maskable-512.png': orgLogos.maskable512,
} as const;

/** One icon of the organisation's current logo; undefined for an old or unknown version. */
export async function readIcon(
  db: Db,
  orgId: string,
  version: string,
  file: BrandIconFile,
): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ image: iconColumn[file] })
    .from(orgLogos)
    .where(and(eq(orgLogos.orgId, orgId), eq(orgLogos.version, version)));
  return row?.image;
}
