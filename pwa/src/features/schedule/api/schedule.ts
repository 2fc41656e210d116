import {
  bookingSettingsSchema,
  classSavedResponseSchema,
  coachesResponseSchema,
  type BookingSettings,
  type ClassInput,
  type ClassSavedResponse,
  type CoachesResponse,
  type OccurrenceEdit,
} from '@platform/schema/schedule/schedule.zod';
import { api } from '../../../lib/api.ts';

// The schedule routes (issue 16): staff change classes here; what they change comes back to
// every device by replication (collections `classes`, `occurrences`).

export function createClass(input: ClassInput): Promise<ClassSavedResponse> {
  return api('/api/schedule/classes', { json: input, schema: classSavedResponseSchema });
}

export function updateSeries(classId: string, input: ClassInput): Promise<ClassSavedResponse> {
  return api(`/api/schedule/classes/${classId}`, {
    method: 'PUT',
    json: input,
    schema: classSavedResponseSchema,
  });
}

export function editOccurrence(occurrenceId: string, edit: OccurrenceEdit): Promise<unknown> {
  return api(`/api/schedule/occurrences/${occurrenceId}`, { method: 'PATCH', json: edit });
}

export function getCoaches(signal?: AbortSignal): Promise<CoachesResponse> {
  return api('/api/schedule/coaches', {
    schema: coachesResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

export function getBookingSettings(signal?: AbortSignal): Promise<BookingSettings> {
  return api('/api/schedule/settings', {
    schema: bookingSettingsSchema,
    ...(signal ? { signal } : {}),
  });
}

export function saveBookingSettings(settings: BookingSettings): Promise<BookingSettings> {
  return api('/api/schedule/settings', {
    method: 'PUT',
    json: settings,
    schema: bookingSettingsSchema,
  });
}
