import {
  appointmentTypeDocSchema,
  availabilityDocSchema,
  staffHoursResponseSchema,
  type AppointmentTypeDoc,
  type AppointmentTypeInput,
  type AvailabilityDoc,
  type AvailabilityInput,
  type StaffHoursResponse,
} from '@platform/schema/schedule/appointments.zod';
import { api } from '../../../lib/api.ts';

// The appointment routes (issue 16), staff side. Types and hours reach every device by
// replication (collections `appointment-types`, `availability`); a screen lists types from the
// replica and sends changes here. Staff hours are read here too: the answer also names the
// staff who have no hours yet, which the replica cannot.

export function getStaffHours(signal?: AbortSignal): Promise<StaffHoursResponse> {
  return api('/api/schedule/staff-hours', {
    schema: staffHoursResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

export function saveStaffHours(userId: string, input: AvailabilityInput): Promise<AvailabilityDoc> {
  return api(`/api/schedule/staff-hours/${userId}`, {
    method: 'PUT',
    json: input,
    schema: availabilityDocSchema,
  });
}

export function createAppointmentType(input: AppointmentTypeInput): Promise<AppointmentTypeDoc> {
  return api('/api/schedule/appointment-types', { json: input, schema: appointmentTypeDocSchema });
}

export function updateAppointmentType(
  typeId: string,
  input: AppointmentTypeInput,
): Promise<AppointmentTypeDoc> {
  return api(`/api/schedule/appointment-types/${typeId}`, {
    method: 'PUT',
    json: input,
    schema: appointmentTypeDocSchema,
  });
}

/** Stops offering a type: customers can no longer book it (the replica drops it). */
export function stopOfferingAppointmentType(typeId: string): Promise<unknown> {
  return api(`/api/schedule/appointment-types/${typeId}`, { method: 'DELETE' });
}
