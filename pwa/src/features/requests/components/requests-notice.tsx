import { Link } from 'react-router';
import { requestsTexts } from '../requests-texts.ts';
import '../requests.css';

/** A bar above every page while answers wait (the count comes from /api/me). */
export function RequestsNotice({ count, settingsPath }: { count: number; settingsPath: string }) {
  if (count === 0) return null;
  return (
    <p className="requests-notice" role="status">
      {requestsTexts.waiting(count)}{' '}
      <Link to={`${settingsPath}#settings-requests-heading`}>{requestsTexts.review}</Link>
    </p>
  );
}
