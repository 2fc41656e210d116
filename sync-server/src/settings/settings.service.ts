import {
  defaultNotificationPreferences,
  notificationPreferencesSchema,
  type ChangePasswordInput,
  type NotificationPreferences,
  type ProfileUpdate,
  type Settings,
} from '@platform/schema/settings/settings.zod';
import { settingsMessages } from '@platform/schema/settings/settings.messages';
import { hashPassword } from '../auth/passwords.ts';
import { verifyPasswordWithinLimits } from '../auth/sign-in-limits.ts';
import {
  findUserById,
  mergeUserAttributes,
  replacePassword,
  type UserRow,
} from '../auth/accounts.service.ts';
import type { Db } from '../db/open-database.ts';
import { NotFound } from '../plugins/domain-errors.ts';
import { renameRosterItemsOf } from '../crm/roster.service.ts';
import { SettingsInvalid } from './settings.errors.ts';
import { updateUserNames } from './settings.repository.ts';

function settingsOf(user: UserRow): Settings {
  const saved = notificationPreferencesSchema.safeParse(user.attributes.notificationPreferences);
  return {
    firstName: user.firstName,
    middleName: user.middleName ?? '',
    lastName: user.lastName,
    email: user.email,
    hasPassword: user.passwordHash !== null,
    notificationPreferences: saved.success ? saved.data : defaultNotificationPreferences,
  };
}

async function userOf(db: Db, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new NotFound('We could not find your account.');
  return user;
}

export async function getSettings(db: Db, userId: string): Promise<Settings> {
  return settingsOf(await userOf(db, userId));
}

/**
 * The person's names, and with them their roster items in every organisation: one
 * transaction, so the CRM and the family's devices never show a name the account no longer has.
 */
export async function updateProfile(
  db: Db,
  userId: string,
  input: ProfileUpdate,
): Promise<Settings> {
  await db.transaction(async (tx) => {
    await updateUserNames(tx, userId, {
      firstName: input.firstName,
      middleName: input.middleName || null,
      lastName: input.lastName,
    });
    await renameRosterItemsOf(tx, userId, input);
  });
  return getSettings(db, userId);
}

/**
 * Checks the current password under the sign-in limits, counted as a log-in of this account
 * from this address (a borrowed session must not become another way to guess it), saves the
 * new one and signs the person out everywhere else.
 */
export async function changePassword(
  db: Db,
  current: { userId: string; sessionId: string; ip: string },
  input: ChangePasswordInput,
): Promise<{ ok: true }> {
  const user = await userOf(db, current.userId);
  const right = await verifyPasswordWithinLimits(
    db,
    { account: user.id, ip: current.ip, passwordHash: user.passwordHash },
    input.currentPassword,
  );
  if (!right)
    throw new SettingsInvalid([
      { field: 'currentPassword', message: settingsMessages.currentPasswordWrong },
    ]);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction((tx) => replacePassword(tx, user.id, passwordHash, current.sessionId));
  return { ok: true };
}

export async function updateNotificationPreferences(
  db: Db,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  await mergeUserAttributes(db, userId, { notificationPreferences: preferences });
  return preferences;
}
