import { describe, expect, it } from 'vitest';
import { sentTogether } from './sent-together.ts';

/** A driver error as drizzle wraps it: its SQLSTATE on the cause. */
const failure = (message: string, code: string) =>
  Object.assign(new Error(`Failed query: ${message}`), {
    cause: Object.assign(new Error(message), { code }),
  });
const aborted = () =>
  failure(
    'current transaction is aborted, commands ignored until end of transaction block',
    '25P02',
  );
const later = <T>(ms: number, run: () => T) =>
  new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(run());
      } catch (error) {
        reject(error);
      }
    }, ms),
  );

describe('sentTogether', () => {
  it('answers every result in the order the statements were sent', async () => {
    expect(await sentTogether([later(5, () => 'a'), null, Promise.resolve(3)])).toEqual([
      'a',
      null,
      3,
    ]);
  });

  it('throws the real failure even when an aborted statement behind it is rejected first', async () => {
    const real = failure('new row violates check constraint', '23514');
    await expect(
      sentTogether([
        later(20, () => {
          throw real;
        }),
        later(1, () => {
          throw aborted();
        }),
      ]),
    ).rejects.toBe(real);
  });

  it('throws the first failure when every failure is an aborted one', async () => {
    const first = aborted();
    await expect(
      sentTogether([
        Promise.reject(first),
        later(1, () => {
          throw aborted();
        }),
      ]),
    ).rejects.toBe(first);
  });

  it('waits for every statement to finish before it throws', async () => {
    let finished = false;
    await expect(
      sentTogether([
        Promise.reject(failure('boom', 'P0001')),
        later(30, () => {
          finished = true;
        }),
      ]),
    ).rejects.toThrow('boom');
    expect(finished).toBe(true);
  });
});
