import { Link } from 'react-router';
import { NotBuiltYet } from '../../../components/not-built-yet.tsx';

/** /auth/kiosk-mode (inside the auth layout): the front-desk clock-in screen comes later. */
export function KioskModePage() {
  return (
    <div className="kiosk-placeholder">
      <NotBuiltYet title="Kiosk mode">
        <p>
          <Link to="/dashboard">Back to the dashboard</Link>
        </p>
      </NotBuiltYet>
    </div>
  );
}
