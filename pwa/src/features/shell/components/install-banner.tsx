import { useMatches } from 'react-router';
import { useBranding, useBrandingSettled } from '../../../lib/branding.ts';
import { useInstallPrompt } from '../../../lib/install-prompt.ts';
import type { RouteHandle } from '../../../lib/route-handle.ts';

/** spec §1/§9 install-to-home-screen offer; its words and icon come from the branding data. */
export function InstallBanner() {
  const branding = useBranding();
  const settled = useBrandingSettled();
  const { canInstall, showIosInstructions, install, dismiss } = useInstallPrompt(branding.id);
  const offered = useMatches().every(
    (match) => (match.handle as RouteHandle | undefined)?.installOffer !== false,
  );
  // A branded page names its organisation, never the platform for a moment before it.
  if (!settled || !offered) return null;
  if (showIosInstructions) {
    return (
      <section className="install-banner" aria-label="Install app">
        <img src={branding.iconSrc} alt="" width={40} height={40} />
        <p>
          <strong>Install {branding.appName}:</strong> tap the Share button{' '}
          <span aria-hidden="true">(the square with an arrow)</span>, then{' '}
          <strong>Add to Home Screen</strong>.
        </p>
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={dismiss}>
            Got it
          </button>
        </div>
      </section>
    );
  }
  if (!canInstall) return null;
  return (
    <section className="install-banner" aria-label="Install app">
      <img src={branding.iconSrc} alt="" width={40} height={40} />
      <p>
        <strong>{branding.appName}</strong> {branding.installPitch}
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={() => void install()}>
          Install app
        </button>
        <button type="button" className="button button-secondary" onClick={dismiss}>
          Not now
        </button>
      </div>
    </section>
  );
}
