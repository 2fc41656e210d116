import { and, eq } from 'drizzle-orm';
import { processorCustomers } from '@platform/schema/db';
import type { Db } from '../../db/open-database.ts';

type Person = { orgId: string; userId: string };

export async function findProcessorCustomer(db: Db, person: Person): Promise<string | null> {
  const [row] = await db
    .select({ id: processorCustomers.processorCustomerId })
    .from(processorCustomers)
    .where(
      and(
        eq(processorCustomers.orgId, person.orgId),
        eq(processorCustomers.userId, person.userId),
        eq(processorCustomers.processor, 'stripe'),
      ),
    );
  return row?.id ?? null;
}

/** Keeps the first customer recorded for this person: a second, racing one is not kept. */
export async function keepProcessorCustomer(
  db: Db,
  person: Person,
  processorCustomerId: string,
): Promise<string> {
  await db
    .insert(processorCustomers)
    .values({ ...person, processor: 'stripe', processorCustomerId })
    .onConflictDoNothing({
      target: [processorCustomers.orgId, processorCustomers.userId, processorCustomers.processor],
    });
  const kept = await findProcessorCustomer(db, person);
  if (!kept) throw new Error('the processor customer was not kept');
  return kept;
}
