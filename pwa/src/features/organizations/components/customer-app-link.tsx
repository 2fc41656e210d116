import { useState } from 'react';
import { Link } from 'react-router';

/** The address customers open (and install) the branded app from, with a copy button. */
export function CustomerAppLink({ path }: { path: string }) {
  const url = `${window.location.origin}${path}`;
  const [copied, setCopied] = useState(false);
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
      <p>
        <Link to={path}>Open customer app</Link>
      </p>
    </div>
  );
}
