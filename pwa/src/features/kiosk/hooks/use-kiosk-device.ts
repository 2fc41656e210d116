import { useCallback, useEffect, useState } from 'react';
import { kioskMessages } from '@platform/schema/kiosk/kiosk.messages';
import type { Kiosk } from '@platform/schema/kiosk/kiosk.zod';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { getKiosk } from '../api/get-kiosk.ts';
import { forgetKiosk, savedKiosk, saveKiosk } from '../kiosk-store.ts';
import { removeKioskData } from '../kiosk-sync.ts';

export type KioskDevice =
  | { status: 'loading' }
  /** Not a kiosk (any more); `notice` says why when it just ended. */
  | { status: 'none'; notice: string | null }
  | { status: 'active'; kiosk: Kiosk };

/** Names and PIN verifiers change (a new PIN, a new colleague): asked again this often, and on reconnecting. */
const REFRESH_MS = 5 * 60_000;

/** The server no longer accepts this device's credential: what the kiosk kept leaves with it. */
function endedHere(): KioskDevice {
  const saved = savedKiosk();
  if (!saved) return { status: 'none', notice: null };
  forgetKiosk(saved.id);
  void removeKioskData(saved.id);
  return { status: 'none', notice: kioskMessages.kioskEnded };
}

/**
 * Whether this device is a kiosk: the copy it keeps answers at once (and alone, offline);
 * the server confirms it and refreshes the staff list. A credential the server no longer
 * accepts (left elsewhere, claim taken away) ends kiosk mode here.
 */
export function useKioskDevice() {
  const [device, setDevice] = useState<KioskDevice>(() => {
    const saved = savedKiosk();
    return saved ? { status: 'active', kiosk: saved } : { status: 'loading' };
  });

  // Promise callbacks, not await: the state changes when the server answers, never during the effect.
  const refresh = useCallback(
    () =>
      getKiosk().then(
        (kiosk) => {
          saveKiosk(kiosk);
          setDevice({ status: 'active', kiosk });
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 401) return setDevice(endedHere());
          if (!(error instanceof NetworkError)) console.error('GET /api/kiosk failed', error);
          // Offline (or a server fault): a kiosk carries on with what it keeps.
          setDevice((current) =>
            current.status === 'loading' ? { status: 'none', notice: null } : current,
          );
        },
      ),
    [],
  );

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const active = device.status === 'active';
  useEffect(() => {
    if (!active) return;
    const again = () => void refresh();
    const timer = setInterval(again, REFRESH_MS);
    window.addEventListener('online', again);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', again);
    };
  }, [active, refresh]);

  const started = useCallback((kiosk: Kiosk) => {
    saveKiosk(kiosk);
    setDevice({ status: 'active', kiosk });
  }, []);

  return { device, refresh, started };
}
