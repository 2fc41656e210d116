import { useState } from 'react';
import { Link } from 'react-router';
import { QrCode } from '../../../components/qr-code.tsx';

/**
 * The address customers open (and install) the branded app from: copy it, open it, or print
 * its QR code for the front desk (issue 14). The code is drawn here, on the device: the link
 * never leaves for a third-party QR service.
 */
export function CustomerAppLink({ path, orgLabel }: { path: string; orgLabel: string }) {
  const url = `${window.location.origin}${path}`;
  const [copied, setCopied] = useState(false);
  const [drawn, setDrawn] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="customer-app-link">
      <label htmlFor="customer-app-url">Link for your customers</label>
      <div className="colour-field">
        <input
          id="customer-app-url"
          readOnly
          value={url}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy link'}
        </button>
      </div>
      <p role="status" className="sr-only">
        {copied ? 'Link copied' : ''}
      </p>
      <figure className="customer-app-qr print-area">
        <QrCode
          url={url}
          label={`QR code that opens ${orgLabel}'s app: ${url}`}
          onDrawn={setDrawn}
        />
        <figcaption>
          <strong>{orgLabel}</strong>
          <span>Scan to open our app — book, pay and check in from your phone.</span>
          <span className="qr-url">{url}</span>
        </figcaption>
      </figure>
      <p className="customer-app-actions">
        <Link to={path}>Open customer app</Link>
        <button
          type="button"
          className="button button-secondary"
          disabled={!drawn}
          onClick={() => window.print()}
        >
          Print QR code
        </button>
      </p>
    </div>
  );
}
