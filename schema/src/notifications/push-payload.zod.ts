// zod/mini: the service worker parses every push with this schema, and the mini build keeps
// zod's weight out of it (the classic API would add some 60 kB to sw.js).
import * as z from 'zod/mini';
import { isSameOriginPath } from './notification-url.rules.ts';

const sitePath = (what: string) =>
  z
    .string()
    .check(z.maxLength(500), z.refine(isSameOriginPath, `${what} must be a path on this site`));

/**
 * What the server puts in a push message and the service worker shows. Web Push carries it
 * as the whole (encrypted) JSON body; FCM as a data message of string values (`data`).
 * Kept small: push services cap a payload at about 4 kB.
 */
export const pushPayloadSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
  body: z.string().check(z.maxLength(500)),
  /** A path on our origin the notification opens on click. */
  url: sitePath('url'),
  icon: z.optional(sitePath('icon')),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
