import type { FastifyInstance } from 'fastify';
import { authRoutes, type AuthRoutesOptions } from './auth/routes.ts';
import { bookingRoutes } from './bookings/routes.ts';
import { brandingRoutes } from './branding/routes.ts';
import { crmRoutes } from './crm/routes.ts';
import { contactListRoutes } from './crm/contact-lists.routes.ts';
import { devToolsRoutes } from './dev-tools/routes.ts';
import { familiesRoutes } from './families/routes.ts';
import { importRoutes } from './imports/routes.ts';
import { exportRoutes } from './exports/routes.ts';
import { kioskRoutes } from './kiosk/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { organizationRoutes } from './organizations/routes.ts';
import { chargeRoutes } from './payments/charge.routes.ts';
import { packageInviteRoutes } from './payments/package-invite.routes.ts';
import { paymentsRoutes } from './payments/routes.ts';
import { shopRoutes } from './payments/shop.routes.ts';
import { refundsToSettleRoutes } from './payments/refunds-to-settle.routes.ts';
import { subscriptionsOverviewRoutes } from './payments/subscriptions-overview.routes.ts';
import { stripeWebhookRoutes } from './payments/webhook.routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { syncRoutes } from './sync/routes.ts';
import { scheduleRoutes } from './schedule/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { timeTrackingRoutes } from './time-tracking/routes.ts';

export type FeatureOptions = AuthRoutesOptions;

/** Each feature's routes, composed in one place. */
export async function registerFeatures(app: FastifyInstance, options: FeatureOptions = {}) {
  await app.register(authRoutes, { googleKeys: options.googleKeys });
  await app.register(organizationRoutes);
  await app.register(brandingRoutes);
  await app.register(devToolsRoutes);
  await app.register(syncRoutes);
  await app.register(timeTrackingRoutes);
  await app.register(notificationRoutes);
  await app.register(familiesRoutes);
  await app.register(settingsRoutes);
  await app.register(kioskRoutes);
  await app.register(crmRoutes);
  await app.register(contactListRoutes);
  await app.register(teamRoutes);
  await app.register(paymentsRoutes);
  await app.register(chargeRoutes);
  await app.register(packageInviteRoutes);
  await app.register(shopRoutes);
  await app.register(subscriptionsOverviewRoutes);
  await app.register(refundsToSettleRoutes);
  await app.register(stripeWebhookRoutes);
  await app.register(scheduleRoutes);
  await app.register(bookingRoutes);
  await app.register(importRoutes);
  await app.register(exportRoutes);
}
