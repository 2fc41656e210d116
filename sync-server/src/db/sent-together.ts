import { errorCodesOf } from './postgres-errors.ts';

/** PostgreSQL's answer to every statement sent after one that failed in the same transaction. */
const ABORTED = '25P02';

/**
 * Waits for statements a transaction sent together without waiting for each other's answers
 * (decision 0075), and answers their results in order. Every one of them has finished before
 * this answers or throws, so none is still running when the transaction ends. When some fail,
 * the error thrown is the real one: the statements behind a failure only fail with "current
 * transaction is aborted", and which rejection arrives first depends on how many promise steps
 * stand between each statement and here — not on the order the database ran them in.
 */
export async function sentTogether<const T extends readonly unknown[]>(
  statements: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(statements);
  const failures = settled.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as unknown] : [],
  );
  if (failures.length)
    throw failures.find((error) => !errorCodesOf(error).includes(ABORTED)) ?? failures[0];
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
