import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { kioskPins, rateLimits } from '@platform/schema/db';
import {
  kioskMessages,
  pinLockedMessage,
  wrongPinMessage,
} from '@platform/schema/kiosk/kiosk.messages';
import { kioskSchema } from '@platform/schema/kiosk/kiosk.zod';
import { MAX_PIN_FAILURES, PIN_LOCK_MS, pinMatches } from '@platform/schema/kiosk/kiosk-pin.rules';
import type { CookieJar } from '../testing/cookie-jar.ts';
import { createTestApp } from '../testing/test-app.ts';
import { testDatabaseKinds } from '../testing/test-database.ts';
import { seedSyncOrg, type Person } from '../testing/sync-fixtures.ts';
import { kioskPinLimit, pinSubject } from './kiosk-pin.service.ts';
import { asKiosk, newManager, startTestKiosk } from './kiosk.fixtures.ts';

describe.each(testDatabaseKinds)('kiosk PINs on %s', (kind) => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: Awaited<ReturnType<typeof seedSyncOrg>>;
  let b: Awaited<ReturnType<typeof seedSyncOrg>>;
  let kioskJar: CookieJar;
  let kioskId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await seedSyncOrg(t.app, t.db);
    b = await seedSyncOrg(t.app, t.db);
    const kiosk = await startTestKiosk(t.app, t.db, a.org.id);
    kioskJar = kiosk.jar;
    kioskId = kiosk.kiosk.id;
  });
  afterAll(() => t.close());

  const pinCall = (method: 'GET' | 'PUT' | 'DELETE', who: Person | null, payload?: object) =>
    t.app.inject({
      method,
      url: '/api/kiosk/pin',
      headers: who?.jar.headers() ?? {},
      ...(payload ? { payload } : {}),
    });
  const verify = (userId: string, pin: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/kiosk/verify-pin',
      headers: asKiosk(kioskJar),
      payload: { userId, pin },
    });
  const rowOf = async (userId: string) =>
    (await t.db.select().from(kioskPins).where(eq(kioskPins.userId, userId)))[0];
  const roster = async () =>
    kioskSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/kiosk', headers: asKiosk(kioskJar) })).json(),
    );
  /** A staff member of a with a PIN of their own, so tests never share a lock. */
  const withPin = async (pin = '4821') => {
    const person = await newManager(t.app, t.db, a.org.id);
    expect((await pinCall('PUT', person, { pin })).statusCode).toBe(200);
    return person;
  };

  describe('setting one’s own PIN (GET/PUT/DELETE /api/kiosk/pin)', () => {
    it('needs a session', async () => {
      expect((await pinCall('GET', null)).statusCode).toBe(401);
      expect((await pinCall('PUT', null, { pin: '4821' })).statusCode).toBe(401);
    });

    it('takes 4 to 8 digits', async () => {
      for (const pin of ['123', '123456789', '12a4', '']) {
        const response = await pinCall('PUT', a.staff, { pin });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual([
          { field: 'pin', message: kioskMessages.pinFormat },
        ]);
      }
      expect((await pinCall('GET', a.staff)).json()).toEqual({ hasPin: false, lockedUntil: null });
    });

    it('stores it hashed with argon2id and as a PBKDF2 verifier, and never answers it back', async () => {
      const person = await newManager(t.app, t.db, a.org.id);
      const response = await pinCall('PUT', person, { pin: '48213' });
      expect(response.json()).toEqual({ hasPin: true, lockedUntil: null });
      expect((await pinCall('GET', person)).json()).toEqual({ hasPin: true, lockedUntil: null });
      const row = await rowOf(person.id);
      expect(row?.pinHash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain('48213');
      // The kiosk gets the verifier, which checks that PIN and no other.
      const listed = (await roster()).staff.find((s) => s.userId === person.id);
      expect(listed?.pin).not.toBeNull();
      expect(await pinMatches('48213', listed!.pin!)).toBe(true);
      expect(await pinMatches('48214', listed!.pin!)).toBe(false);

      expect((await pinCall('DELETE', person)).json()).toEqual({
        hasPin: false,
        lockedUntil: null,
      });
      expect((await roster()).staff.find((s) => s.userId === person.id)?.pin).toBeNull();
    });
  });

  describe('checking a PIN at the kiosk (POST /api/kiosk/verify-pin)', () => {
    it('says yes to the right PIN, and how many tries are left after a wrong one', async () => {
      const person = await withPin();
      expect((await verify(person.id, '4821')).json()).toEqual({ ok: true });
      const wrong = await verify(person.id, '1111');
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().message).toBe(wrongPinMessage(MAX_PIN_FAILURES - 1));
    });

    it('locks the person out after five wrong PINs in a row, the right one included, for fifteen minutes', async () => {
      const person = await withPin();
      for (let i = 1; i < MAX_PIN_FAILURES; i++)
        expect((await verify(person.id, '0000')).statusCode).toBe(422);
      const locking = await verify(person.id, '0000');
      expect(locking.statusCode).toBe(429);
      expect(locking.json().message).toBe(pinLockedMessage(PIN_LOCK_MS));
      expect(locking.headers['retry-after']).toBe(String(PIN_LOCK_MS / 1000));
      const right = await verify(person.id, '4821');
      expect(right.statusCode).toBe(429);
      expect(right.json().message).toMatch(/^Too many wrong PINs\. Try again in 1[45] minutes\.$/);

      // The kiosk learns of the lock, to keep it while offline; so does the person.
      const lockedUntil = locking.json().details.lockedUntil;
      expect(right.json().details.lockedUntil).toBe(lockedUntil);
      expect((await roster()).staff.find((s) => s.userId === person.id)?.lockedUntil).toBe(
        lockedUntil,
      );
      expect((await pinCall('GET', person)).json()).toEqual({ hasPin: true, lockedUntil });

      // Once the lock has passed, the right PIN works again, and five more tries are free.
      const past = new Date(Date.now() - 1000);
      await t.db
        .update(rateLimits)
        .set({ freeAt: past, forgetAt: past })
        .where(eq(rateLimits.key, `${kioskPinLimit.name}:${pinSubject(person.id, kioskId)}`));
      expect((await verify(person.id, '4821')).json()).toEqual({ ok: true });
      expect((await roster()).staff.find((s) => s.userId === person.id)?.lockedUntil).toBeNull();
      expect((await pinCall('GET', person)).json()).toEqual({ hasPin: true, lockedUntil: null });
    });

    it('starts counting again after a right PIN, and after a new PIN is set', async () => {
      const person = await withPin();
      for (let i = 1; i < MAX_PIN_FAILURES; i++) await verify(person.id, '0000');
      expect((await verify(person.id, '4821')).statusCode).toBe(200);
      for (let i = 1; i < MAX_PIN_FAILURES; i++)
        expect((await verify(person.id, '0000')).statusCode).toBe(422);
      expect((await verify(person.id, '0000')).statusCode).toBe(429);
      // Setting a new PIN while signed in lifts the lock.
      await pinCall('PUT', person, { pin: '9876' });
      expect((await verify(person.id, '9876')).json()).toEqual({ ok: true });
    });

    it('keeps a lock to the kiosk where the wrong PINs were typed: a stranger elsewhere cannot lock a person out', async () => {
      const person = await withPin();
      const elsewhere = (await startTestKiosk(t.app, t.db, a.org.id)).jar;
      const verifyAt = (jar: CookieJar, pin: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/kiosk/verify-pin',
          headers: asKiosk(jar),
          payload: { userId: person.id, pin },
        });
      for (let i = 1; i < MAX_PIN_FAILURES; i++)
        expect((await verifyAt(elsewhere, '0000')).statusCode).toBe(422);
      const locked = await verifyAt(elsewhere, '0000');
      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect((await verifyAt(elsewhere, '4821')).statusCode).toBe(429);
      // Here, the person clocks in as usual, and this kiosk is told of no lock.
      expect((await verify(person.id, '4821')).json()).toEqual({ ok: true });
      expect((await roster()).staff.find((s) => s.userId === person.id)?.lockedUntil).toBeNull();
    });

    it('knows only the organisation’s staff who track time, and those who have a PIN', async () => {
      const person = await withPin();
      const notHere = await verify(a.parent.id, '4821');
      expect(notHere.statusCode).toBe(404);
      expect(notHere.json().message).toBe(kioskMessages.notAtThisKiosk);
      await pinCall('PUT', b.manager, { pin: '4821' });
      expect((await verify(b.manager.id, '4821')).statusCode).toBe(404);
      const noPin = await verify(a.staff.id, '4821');
      expect(noPin.statusCode).toBe(422);
      expect(noPin.json().message).toBe(kioskMessages.noPin);
      expect((await verify(person.id, '4821')).statusCode).toBe(200);
    });

    it('needs the kiosk credential, not a session', async () => {
      const person = await withPin();
      const asPerson = await t.app.inject({
        method: 'POST',
        url: '/api/kiosk/verify-pin',
        headers: person.jar.headers(),
        payload: { userId: person.id, pin: '4821' },
      });
      expect(asPerson.statusCode).toBe(401);
    });
  });
});
