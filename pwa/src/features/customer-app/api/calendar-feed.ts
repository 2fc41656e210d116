import {
  calendarFeedResponseSchema,
  type CalendarFeedResponse,
} from '@platform/schema/schedule/schedule.zod';
import { api } from '../../../lib/api.ts';

/** The customer's private calendar feed (issue 16): status, a new link, revoking it. */
export function getCalendarFeed(signal?: AbortSignal): Promise<CalendarFeedResponse> {
  return api('/api/schedule/calendar-feed', {
    schema: calendarFeedResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

export function makeCalendarFeed(): Promise<CalendarFeedResponse> {
  return api('/api/schedule/calendar-feed', {
    method: 'POST',
    json: {},
    schema: calendarFeedResponseSchema,
  });
}

export function revokeCalendarFeed(): Promise<unknown> {
  return api('/api/schedule/calendar-feed', { method: 'DELETE' });
}
