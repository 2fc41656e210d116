import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CustomerProfile } from '@platform/schema/crm/crm.zod';
import { ageText } from '@platform/schema/families/date-of-birth.rules';
import { localToday } from '../../../lib/local-today.ts';
import { familyMessages, guardianMessages } from '@platform/schema/families/families.messages';
import { fullNameOf } from '../crm-customer.ts';
import { crmTexts } from '../crm-texts.ts';

type Person = CustomerProfile['guardians'][number];

const redirectPath = (userId: string) =>
  `/dashboard/crm/redirect?${new URLSearchParams({ userId })}`;

function People({ label, people, empty }: { label: string; people: Person[]; empty: string }) {
  if (people.length === 0) return <p className="crm-muted">{empty}</p>;
  const today = localToday();
  return (
    <ul className="crm-people" aria-label={label}>
      {people.map((person) => (
        <li key={person.id}>
          <Link to={redirectPath(person.id)}>{fullNameOf(person)}</Link>
          {person.dateOfBirth && (
            <span className="crm-muted"> · {ageText(person.dateOfBirth, today)}</span>
          )}
          {person.email && <span className="crm-muted"> · {person.email}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Guardians and children of the customer, each a link to their own profile, and the family modals. */
export function CustomerFamily({
  profile,
  actions,
}: {
  profile: CustomerProfile;
  actions: ReactNode;
}) {
  return (
    <section className="crm-card" aria-labelledby="crm-family-heading">
      <h2 id="crm-family-heading">Family</h2>
      <h3 className="crm-subheading">Parents/guardians</h3>
      <People
        label="Parents/guardians"
        people={profile.guardians}
        empty={guardianMessages.noGuardians}
      />
      <h3 className="crm-subheading">Child accounts</h3>
      <People label="Child accounts" people={profile.children} empty={familyMessages.noChildren} />
      {profile.familyManagedByStaff ? (
        actions
      ) : (
        <p className="crm-muted">{crmTexts.familyOwnedByCustomer(fullNameOf(profile.contact))}</p>
      )}
    </section>
  );
}
