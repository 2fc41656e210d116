import { Link } from 'react-router';
import { setCookieConsent, useCookieConsent } from '../../../lib/cookie-consent.ts';

/** spec §4 Cookie consent: shown while undecided; Allow is remembered, Decline lasts the session. */
export function CookieBanner() {
  const consent = useCookieConsent();
  if (consent !== 'undecided') return null;
  return (
    <section className="cookie-banner" aria-label="Cookie consent">
      <p>
        This site uses cookies. <Link to="/documents/cookies">Which cookies and why</Link>
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={() => setCookieConsent('accepted')}>
          Allow
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setCookieConsent('declined')}
        >
          Decline
        </button>
      </div>
    </section>
  );
}
