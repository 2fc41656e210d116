import { z } from 'zod';
import { documentIdSchema } from '../sync/ids.ts';
import { isoTimeSchema } from '../sync/iso-time.ts';

/**
 * A booking's life (decision 0066). A device writes `requested` (for itself, a child, or — staff
 * — any customer), online or not; the server's verdict arrives by replication: `booked`,
 * `waitlisted` (full, and the person asked to wait) or `refused` (with the reason). People
 * cancel; staff record `attended` (a check-in) or `no-show`.
 */
export const bookingStatuses = [
  'requested',
  'booked',
  'waitlisted',
  'refused',
  'cancelled',
  'attended',
  'no-show',
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/**
 * How a booked place is paid for: the server decides (booking.rules.ts `paymentFor`). `card`:
 * paid online when booking (decision 0070). `desk`: staff added the person although nothing
 * they hold pays — settled at the front desk.
 */
export const bookingPayments = ['free', 'subscription', 'credit', 'card', 'desk'] as const;

/** A replicated booking (issue 4 wire contract, issue 16 adds the verdicts). */
export const bookingDocSchema = z.object({
  id: documentIdSchema,
  orgId: z.uuid(),
  customerUserId: z.uuid(),
  /**
   * The person's name as the server knows it, set by the server: what a roster and the
   * front-desk kiosk show (the kiosk replicates no roster). A device writes its best guess.
   */
  customerName: z.string().max(300),
  occurrenceId: z.string().min(1).max(100),
  status: z.enum(bookingStatuses),
  /**
   * An appointment asked for (a type, a staff member, a start): the device names a new class
   * time id in `occurrenceId`, and the server makes that class time if the slot is free.
   * Null for a class or event.
   */
  appointment: z
    .object({ typeId: z.uuid(), staffUserId: z.uuid(), startsAt: isoTimeSchema })
    .nullable(),
  /** When the class is full: wait for a place (true) or be told so (false). */
  joinWaitlist: z.boolean(),
  /** Set by the server with `booked`: what paid for the place. */
  paidWith: z.enum(bookingPayments).nullable(),
  /** Set by the server with `refused`: why, in words for the person. */
  refusal: z.string().max(300).nullable(),
  /** When the person asked, on their device's clock (offline requests keep their time). */
  requestedAt: isoTimeSchema,
  /** When the server decided (the waitlist's order: whoever reached the server first). */
  decidedAt: isoTimeSchema.nullable(),
  /** When staff checked the person in. */
  checkedInAt: isoTimeSchema.nullable(),
  updatedAt: isoTimeSchema,
});
export type BookingDoc = z.infer<typeof bookingDocSchema>;
