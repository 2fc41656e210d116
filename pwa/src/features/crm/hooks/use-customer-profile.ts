import { useCallback, useEffect, useState } from 'react';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { getCustomerProfile } from '../api/get-customer-profile.ts';

export type ProfileState =
  | { status: 'loading' }
  | { status: 'ready'; profile: CustomerProfile }
  /** 404: no such customer in this organisation (another organisation's id included). */
  | { status: 'not-found' }
  | { status: 'offline' }
  | { status: 'failed' };

/** One customer's profile from the server, asked again on `reload`. */
export function useCustomerProfile(rosterId: string) {
  const [state, setState] = useState<ProfileState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    getCustomerProfile(rosterId, controller.signal).then(
      (profile) => setState({ status: 'ready', profile }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setState({ status: 'not-found' });
        else if (error instanceof NetworkError) setState({ status: 'offline' });
        else setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [rosterId, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const update = useCallback(
    (change: (profile: CustomerProfile) => CustomerProfile) =>
      setState((s) => (s.status === 'ready' ? { ...s, profile: change(s.profile) } : s)),
    [],
  );
  return { state, reload, update };
}
