import { useEffect } from 'react';
import { useToast } from '../../../components/toast/toast-context.ts';
import { applyUpdate, useUpdateAvailable } from '../../../lib/service-worker.ts';

/** Offers the waiting service worker as a toast that stays until chosen or dismissed. */
export function UpdateNotifier() {
  const updateAvailable = useUpdateAvailable();
  const toast = useToast();
  useEffect(() => {
    if (!updateAvailable) return;
    const id = toast.show('A new version is available.', 'info', {
      duration: Number.POSITIVE_INFINITY,
      action: { label: 'Update available — reload', onClick: applyUpdate },
    });
    return () => toast.dismiss(id);
  }, [updateAvailable, toast]);
  return null;
}
