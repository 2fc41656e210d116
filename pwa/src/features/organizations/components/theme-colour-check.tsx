import {
  AA_TEXT_CONTRAST,
  contrastRatio,
  isHexColour,
  nearestReadableColour,
} from '@platform/schema/branding/contrast.rules';

/**
 * A preview of the app bar in the chosen colour, and — when white text would be hard to read on
 * it — why, and the nearest colour that reads well (WCAG AA), one click away (issue 14).
 */
export function ThemeColourCheck({
  colour,
  appName,
  onUse,
}: {
  colour: string;
  appName: string;
  onUse: (colour: string) => void;
}) {
  if (!isHexColour(colour)) return null;
  const ratio = contrastRatio(colour, '#ffffff');
  const readable = ratio >= AA_TEXT_CONTRAST;
  const suggestion = readable ? null : nearestReadableColour(colour);
  return (
    <div className="theme-check" id="branding-themeColor-check">
      <div className="theme-preview" aria-hidden="true">
        <span className="theme-preview-bar" style={{ background: colour }}>
          {appName || 'Your app'}
        </span>
        <span className="theme-preview-button" style={{ background: suggestion ?? colour }}>
          Book now
        </span>
      </div>
      {suggestion && (
        <div className="theme-warning" role="status">
          <p>
            White text on {colour} has a contrast of {ratio.toFixed(1)}:1; text needs{' '}
            {AA_TEXT_CONTRAST}:1 to be easy to read (WCAG AA). Until you change it, your app's
            buttons and links keep the platform's colour; yours colours the phone's status bar and
            the install screen only.
          </p>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => onUse(suggestion)}
          >
            <span className="theme-swatch" style={{ background: suggestion }} aria-hidden="true" />
            Use {suggestion}, the nearest colour that reads well
          </button>
        </div>
      )}
    </div>
  );
}
