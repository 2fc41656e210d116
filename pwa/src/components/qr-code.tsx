import { useEffect, useState } from 'react';
import { toString as qrSvg } from 'qrcode';
import './qr-code.css';

/**
 * A QR code of `url`, drawn here on the device by the qrcode library (the link never leaves for
 * a third-party QR service). `onDrawn` tells whether it is on screen yet (to enable printing).
 */
export function QrCode({
  url,
  label,
  className = '',
  onDrawn,
}: {
  url: string;
  /** What the code opens, for screen readers. */
  label: string;
  className?: string;
  onDrawn?: (drawn: boolean) => void;
}) {
  const [svg, setSvg] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    qrSvg(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      .then((drawn) => live && setSvg(drawn))
      .catch(() => live && setSvg(null));
    return () => {
      live = false;
    };
  }, [url]);
  useEffect(() => onDrawn?.(svg !== null), [svg, onDrawn]);

  return svg ? (
    <div
      className={`qr-code ${className}`}
      role="img"
      aria-label={label}
      // The SVG is drawn by the qrcode library from our own URL: no outside markup.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  ) : (
    <div className={`qr-code qr-code-pending ${className}`} aria-hidden="true" />
  );
}
