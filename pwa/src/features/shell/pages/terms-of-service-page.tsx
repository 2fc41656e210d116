import { DocumentArticle } from './document-article.tsx';

export function TermsOfServicePage() {
  return (
    <DocumentArticle title="Terms of service">
      <p>
        These terms cover your use of the platform: the dashboard for organizations, the customer
        app and the kiosk. By creating an account you agree to use the platform lawfully and to keep
        your sign-in details to yourself.
      </p>
      <p>
        Organizations are responsible for the information they keep about their customers and for
        the products they sell. Payments are processed by a card payment provider; we do not store
        card numbers.
      </p>
      <p>
        This is a short summary written while the product is being built. The full legal text will
        replace it before the platform is offered commercially.
      </p>
    </DocumentArticle>
  );
}
