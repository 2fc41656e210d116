import { useState } from 'react';
import {
  cardExpiry,
  cardName,
  cardsOnFile,
  isCardExpired,
} from '@platform/schema/payments/card-on-file.rules';
import type { PurchaseDoc } from '@platform/schema/payments/purchase-docs.zod';
import { localToday } from '../../../lib/local-today.ts';
import { useOnlineStatus } from '../../../lib/online-status.ts';
import { shopTexts } from '../shop-texts.ts';
import { ReplaceCardDialog } from './replace-card-dialog.tsx';

/**
 * Purchase history's card on file (issue 15): the card each renewing subscription of this
 * account is charged to, from the device's replica (offline too), and 'Replace card', which
 * needs the network and says so. A guardian replaces a child's card in the child's account.
 */
export function CardOnFile({
  orgId,
  userId,
  purchases,
}: {
  orgId: string;
  userId: string;
  purchases: readonly PurchaseDoc[];
}) {
  const online = useOnlineStatus();
  const [replacing, setReplacing] = useState(false);
  const cards = cardsOnFile(purchases, userId);
  if (cards.length === 0) return null;
  const today = localToday();
  return (
    <section aria-labelledby="ph-card" className="card-on-file">
      <h2 id="ph-card">Card on file</h2>
      <ul className="purchases">
        {cards.map(({ card, productNames, pastDue }) => (
          <li key={`${cardName(card)}-${cardExpiry(card)}`} className="shop-item">
            <h3>{cardName(card)}</h3>
            <p>
              {isCardExpired(card, today) ? 'Expired' : 'Expires'} {cardExpiry(card)}
            </p>
            <p className="field-hint">Renews {productNames.join(', ')}</p>
            {pastDue && (
              <p className="form-error" role="alert">
                {shopTexts.pastDue}
              </p>
            )}
          </li>
        ))}
      </ul>
      {!online && (
        <p className="crm-offline" role="status">
          {shopTexts.offlineCard}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={!online}
          onClick={() => setReplacing(true)}
        >
          Replace card
        </button>
      </div>
      {replacing && <ReplaceCardDialog orgId={orgId} onClose={() => setReplacing(false)} />}
    </section>
  );
}
