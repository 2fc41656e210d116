import { useBranding } from '../../../lib/branding.ts';
import { useInstallPrompt } from '../../../lib/install-prompt.ts';

/** spec §1/§9 install-to-home-screen offer; its words and icon come from the branding data. */
export function InstallBanner() {
  const branding = useBranding();
  const { canInstall, install, dismiss } = useInstallPrompt(branding.id);
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
