import { useNavigate } from 'react-router';
import { PageLoading } from '../../../components/page-loading.tsx';
import { KioskScreen } from '../components/kiosk-screen.tsx';
import { StartKioskPanel } from '../components/start-kiosk-panel.tsx';
import { useKioskDevice } from '../hooks/use-kiosk-device.ts';
import '../kiosk.css';

/**
 * /auth/kiosk-mode (spec §2; issue 6): the front-desk time clock on a device that is a kiosk,
 * otherwise the place a staff member with manage-kiosk turns this device into one.
 */
export function KioskModePage() {
  const { device, refresh, started } = useKioskDevice();
  const navigate = useNavigate();
  switch (device.status) {
    case 'loading':
      return <PageLoading label="Loading kiosk…" />;
    case 'active':
      return (
        <KioskScreen
          kiosk={device.kiosk}
          onLeft={() => void navigate('/auth/login', { replace: true })}
          onCredentialRejected={refresh}
        />
      );
    case 'none':
      return <StartKioskPanel notice={device.notice} onStarted={started} />;
  }
}
