import { z } from 'zod';
import { unstorableTextIn } from '../sync/storable-text.rules.ts';

export const WAIVER_MAX_LENGTH = 20_000;

export const documentMessages = {
  waiverTooLong: `The waiver must be at most ${WAIVER_MAX_LENGTH.toLocaleString('en-US')} characters.`,
  waiverSaved: 'Waiver saved.',
  waiverReset: 'The platform’s waiver is used again.',
} as const;

/**
 * The platform's waiver of liability: what every organisation's customers see until the
 * organisation writes its own (issue 14). Paragraphs are separated by blank lines.
 */
export const defaultWaiverText = [
  'Physical training and health coaching carry a risk of injury. By taking part in sessions booked through this app you confirm that you are fit to do so, or that you have asked a doctor.',
  'The organization that runs your sessions is responsible for them. The platform provides the software for bookings, payments and communication only.',
].join('\n\n');

/** PUT: the organisation's own text; empty means "use the platform's again". */
export const waiverInputSchema = z.object({
  text: z
    .string()
    .trim()
    .max(WAIVER_MAX_LENGTH, documentMessages.waiverTooLong)
    .superRefine((text, context) => {
      const reason = unstorableTextIn(text);
      if (reason) context.addIssue({ code: 'custom', message: reason });
    }),
});
export type WaiverInput = z.infer<typeof waiverInputSchema>;

export const waiverSchema = z.object({
  orgLabel: z.string(),
  text: z.string(),
  /** True while the organisation has not written its own. */
  isDefault: z.boolean(),
});
export type Waiver = z.infer<typeof waiverSchema>;

/** Paragraphs of a document's text, for display. */
export const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
