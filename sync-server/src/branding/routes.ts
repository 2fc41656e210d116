import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandIconFiles,
  brandingMessages,
  brandingSettingsSchema,
  LOGO_MAX_BYTES,
} from '@platform/schema/branding/branding.zod';
import { orgClaimFirst, requireClaim } from '../plugins/session.ts';
import { NotFound, ValidationFailed } from '../plugins/domain-errors.ts';
import { renderManifest } from '../web-manifest/render-manifest.ts';
import type { ShellTransform } from '../web/spa.ts';
import { brandedOrgIdOf, brandHtml } from './branded-html.ts';
import { findBranding, readIcon, toPublicBranding } from './branding.repository.ts';
import {
  brandedManifestData,
  getBrandingSettings,
  removeLogo,
  saveBrandingSettings,
  uploadLogo,
} from './branding.service.ts';

// Ids in lower case, as stored and as sessions carry them (PostgreSQL compares UUIDs
// case-insensitively, JavaScript strings exactly).
const orgIdSchema = z.uuid().transform((id) => id.toLowerCase());
const orgParams = z.object({ orgId: orgIdSchema });
// Asset paths that name nothing answer the not-found page, never a 400.
const iconParams = z
  .object({
    orgId: orgIdSchema,
    version: z.string().regex(/^[0-9a-f]{16}$/),
    file: z.enum(brandIconFiles),
  })
  .nullable()
  .catch(null);
const manifestParams = z
  .object({ file: z.string().regex(/^[0-9a-f-]{36}\.webmanifest$/i) })
  .transform(({ file }) => ({ orgId: orgIdSchema.safeParse(file.slice(0, 36)).data }))
  .catch({ orgId: undefined });
const noSuchOrganization = () => new NotFound('This organization does not exist.');

/** The claim that changes how the organisation's app looks (spec §6 Organization). */
const brandingClaim = ['manage-org-branding'] as const;

/**
 * Branding (issue 5): the public branding of an organisation, its settings for staff, the logo
 * turned into icons, each organisation's web app manifest and its icons.
 */
export async function brandingRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Public: an id that is not one answers as an unknown organisation does.
  api.get(
    '/api/branding/:orgId',
    { schema: { params: orgParams }, config: { invalidInput: noSuchOrganization } },
    async (request, reply) => {
      const row = await findBranding(app.db, request.params.orgId);
      if (!row) throw noSuchOrganization();
      reply.header('cache-control', 'no-cache');
      return toPublicBranding(row);
    },
  );

  api.get(
    '/api/organizations/:orgId/branding',
    { schema: { params: orgParams } },
    async (request) => {
      const { orgId } = request.params;
      await requireClaim(request, orgId, brandingClaim);
      return getBrandingSettings(app.db, orgId);
    },
  );

  api.put(
    '/api/organizations/:orgId/branding',
    {
      schema: { params: orgParams, body: brandingSettingsSchema },
      preValidation: orgClaimFirst(brandingClaim),
    },
    async (request) => {
      const { orgId } = request.params;
      await requireClaim(request, orgId, brandingClaim);
      return saveBrandingSettings(app.db, orgId, request.body);
    },
  );

  // The logo is the request body itself, whatever its type: the image library decides what
  // it is. Its own limit, above the app's 1 MiB, so a large file gets the words for it.
  await app.register(async (upload) => {
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 2 },
      (_request, body, done) => done(null, body),
    );
    upload.withTypeProvider<ZodTypeProvider>().put(
      '/api/organizations/:orgId/logo',
      {
        bodyLimit: LOGO_MAX_BYTES * 2,
        schema: { params: orgParams },
        // onRequest, not preValidation: nobody without the claim gets megabytes read first.
        onRequest: orgClaimFirst(brandingClaim),
      },
      async (request) => {
        const { orgId } = request.params;
        await requireClaim(request, orgId, brandingClaim);
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new ValidationFailed(brandingMessages.logoNotAnImage);
        }
        if (body.length > LOGO_MAX_BYTES) throw new ValidationFailed(brandingMessages.logoTooLarge);
        return uploadLogo(app.db, orgId, body);
      },
    );
  });

  api.delete(
    '/api/organizations/:orgId/logo',
    { schema: { params: orgParams } },
    async (request) => {
      const { orgId } = request.params;
      await requireClaim(request, orgId, brandingClaim);
      return removeLogo(app.db, orgId);
    },
  );

  // Icon URLs carry the logo's version, so they never change content: cached for a year.
  api.get(
    '/org-assets/:orgId/:version/:file',
    { schema: { params: iconParams } },
    async (request, reply) => {
      if (!request.params) return reply.callNotFound();
      const { orgId, version, file } = request.params;
      const image = await readIcon(app.db, orgId, version, file);
      if (!image) return reply.callNotFound();
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type('image/png')
        .send(image);
    },
  );

  api.get('/manifests/:file', { schema: { params: manifestParams } }, async (request, reply) => {
    const { orgId } = request.params;
    const row = orgId ? await findBranding(app.db, orgId) : undefined;
    if (!row) return reply.callNotFound();
    const body = JSON.stringify(renderManifest(brandedManifestData(row)));
    // Revalidated on every use (names and colours change), answered 304 when unchanged.
    const etag = `"${row.txid}"`;
    reply.header('cache-control', 'no-cache').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/manifest+json; charset=utf-8').send(body);
  });
}

/** The app shell of an organisation's pages carries its manifest, colour, title and icon. */
export function brandShell(app: FastifyInstance): ShellTransform {
  return async (html, request) => {
    const orgId = brandedOrgIdOf(request.url);
    const row = orgId ? await findBranding(app.db, orgId) : undefined;
    return row ? brandHtml(html, toPublicBranding(row)) : html;
  };
}
