import { DocumentArticle } from './document-article.tsx';

export function CookiesPage() {
  return (
    <DocumentArticle title="Cookies">
      <p>We use two kinds of browser storage:</p>
      <ul>
        <li>
          <strong>Sign-in cookies</strong> keep you signed in. They are needed for the platform to
          work and are never used for tracking.
        </li>
        <li>
          <strong>Storage on this device</strong> keeps your cookie choice, your preferences and the
          data the app needs to work offline.
        </li>
      </ul>
      <p>
        When you choose Allow, we remember that for this month on this device. When you choose
        Decline, we remember it until you close the browser. We do not use advertising cookies.
      </p>
    </DocumentArticle>
  );
}
