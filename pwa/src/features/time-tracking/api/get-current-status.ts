import type { ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import {
  clockStateSchema,
  type GetCurrentStatusInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/time-tracking, action get-current-status. */
export function getCurrentStatus(
  input: Omit<GetCurrentStatusInput, 'action'>,
  signal?: AbortSignal,
): Promise<ClockState> {
  return api('/api/time-tracking', {
    json: { action: 'get-current-status', ...input } satisfies GetCurrentStatusInput,
    schema: clockStateSchema,
    ...(signal ? { signal } : {}),
  });
}
