import type { ClockState } from '@platform/schema/time-tracking/time-clock.rules';
import {
  clockStateSchema,
  type ClockActionInput,
} from '@platform/schema/time-tracking/time-tracking.zod';
import { api } from '../../../lib/api.ts';

/** spec §7 POST /api/time-tracking, actions clock-in, clock-out, start-break and end-break. */
export function runClockAction(input: ClockActionInput): Promise<ClockState> {
  return api('/api/time-tracking', { json: input, schema: clockStateSchema });
}
