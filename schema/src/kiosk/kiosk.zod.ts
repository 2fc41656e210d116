import { z } from 'zod';
import { isoTimeSchema } from '../sync/iso-time.ts';
import { kioskMessages } from './kiosk.messages.ts';
import { pinSchema } from './kiosk-pin.rules.ts';

/**
 * Sent by the kiosk's own requests (its replication, its roster): the server then reads the
 * kiosk credential and never a staff session, so a device that has both never mixes them up.
 */
export const KIOSK_REQUEST_HEADER = 'x-kiosk';

/** POST /api/kiosk/start (a staff session with manage-kiosk in that organisation). */
export const startKioskInputSchema = z.object({ orgId: z.uuid() });
export type StartKioskInput = z.infer<typeof startKioskInputSchema>;

export const pinVerifierSchema = z.object({
  salt: z.string().min(1),
  iterations: z.number().int().min(1),
  verifier: z.string().min(1),
});

/** One person at the kiosk: a name to pick, and what checks their PIN offline. */
export const kioskStaffMemberSchema = z.object({
  userId: z.uuid(),
  name: z.string(),
  /** null: no PIN set yet. */
  pin: pinVerifierSchema.nullable(),
  /** The server's lock after repeated wrong PINs, kept by the kiosk while offline. */
  lockedUntil: isoTimeSchema.nullable(),
});
export type KioskStaffMember = z.infer<typeof kioskStaffMemberSchema>;

/** GET /api/kiosk (the kiosk credential): this kiosk, its organisation and who clocks in here. */
export const kioskSchema = z.object({
  id: z.uuid(),
  org: z.object({ id: z.uuid(), label: z.string(), timezone: z.string().nullable() }),
  startedBy: z.object({ id: z.uuid(), name: z.string() }),
  staff: z.array(kioskStaffMemberSchema),
});
export type Kiosk = z.infer<typeof kioskSchema>;

/** POST /api/kiosk/verify-pin: 200 {ok:true}; 422 wrong (or no) PIN; 429 locked out. */
export const verifyPinInputSchema = z.object({ userId: z.uuid(), pin: z.string().max(64) });
export type VerifyPinInput = z.infer<typeof verifyPinInputSchema>;
export const verifyPinAnswerSchema = z.object({ ok: z.literal(true) });

/** POST /api/kiosk/leave: the password of the staff member who started the kiosk. */
export const leaveKioskInputSchema = z.object({ password: z.string().min(1).max(1000) });
export type LeaveKioskInput = z.infer<typeof leaveKioskInputSchema>;

/** PUT /api/kiosk/pin (one's own session). The PIN itself never comes back. */
export const setKioskPinInputSchema = z.object({ pin: pinSchema });
export type SetKioskPinInput = z.infer<typeof setKioskPinInputSchema>;

/** GET, PUT and DELETE /api/kiosk/pin answer this. */
export const kioskPinStatusSchema = z.object({
  hasPin: z.boolean(),
  lockedUntil: isoTimeSchema.nullable(),
});
export type KioskPinStatus = z.infer<typeof kioskPinStatusSchema>;

/** The settings form: the PIN typed twice. */
export const kioskPinFormSchema = z
  .object({ pin: pinSchema, confirmPin: z.string() })
  .refine((value) => value.pin === value.confirmPin, {
    path: ['confirmPin'],
    message: kioskMessages.pinsDiffer,
  });
export type KioskPinForm = z.infer<typeof kioskPinFormSchema>;
