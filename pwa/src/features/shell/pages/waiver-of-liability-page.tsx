import { DocumentArticle } from './document-article.tsx';

export function WaiverOfLiabilityPage() {
  return (
    <DocumentArticle title="Waiver of liability">
      <p>
        Physical training and health coaching carry a risk of injury. By taking part in sessions
        booked through this platform you confirm that you are fit to do so, or that you have asked a
        doctor.
      </p>
      <p>
        The organization that runs your sessions is responsible for them. The platform provides the
        software for bookings, payments and communication only.
      </p>
      <p>
        This is a short summary written while the product is being built. Each organization may ask
        you to accept its own waiver as well.
      </p>
    </DocumentArticle>
  );
}
