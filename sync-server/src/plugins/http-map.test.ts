import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { NotFound } from './domain-errors.ts';
import { httpStatusOf } from './http-map.ts';

/** What a driver throws: an Error carrying PostgreSQL's SQLSTATE (or a socket's code). */
const driverError = (code: string, message = 'driver error') =>
  Object.assign(new Error(message), { code });
/** What drizzle throws around it since 0.44: the driver's error is only the cause. */
const wrapped = (cause: Error) => new DrizzleQueryError('select 1', [], cause);

describe('httpStatusOf', () => {
  it('answers text PostgreSQL cannot store with 400, bare or wrapped by drizzle', () => {
    for (const code of ['22021', '22P05']) {
      expect(httpStatusOf(driverError(code)), code).toBe(400);
      expect(httpStatusOf(wrapped(driverError(code))), `wrapped ${code}`).toBe(400);
    }
  });

  it('answers 503 when the database cannot be reached, bare or wrapped by drizzle', () => {
    const unavailable = [
      driverError('ECONNREFUSED'),
      driverError('CONNECTION_CLOSED'),
      driverError('CONNECTION_ENDED'),
      driverError('57P01', 'terminating connection due to administrator command'),
      driverError('53300', 'sorry, too many clients already'),
      driverError('08006', 'connection failure'),
      new Error('PGlite is closed'),
    ];
    for (const error of unavailable) {
      expect(httpStatusOf(error), error.message).toBe(503);
      expect(httpStatusOf(wrapped(error)), `wrapped ${error.message}`).toBe(503);
    }
  });

  it('keeps 500 for database errors that are the server’s own', () => {
    expect(httpStatusOf(wrapped(driverError('42P01')))).toBe(500);
    expect(httpStatusOf(new Error('boom'))).toBe(500);
  });

  it('maps domain errors and survives a cause chain that loops', () => {
    expect(httpStatusOf(new NotFound('gone'))).toBe(404);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    expect(httpStatusOf(b)).toBe(500);
  });
});
