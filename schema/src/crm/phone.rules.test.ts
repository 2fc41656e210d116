import { describe, expect, it } from 'vitest';
import { crmMessages } from './crm.messages.ts';
import { addCustomerRequestSchemaFor } from './crm.zod.ts';
import { displayPhone, isStoredPhone, normalisePhone, phoneFieldSchema } from './phone.rules.ts';

describe('phone numbers', () => {
  it.each([
    ['(201) 555-0123', 'US', '+12015550123'],
    ['201.555.0123', 'US', '+12015550123'],
    ['+1 201 555 0123 ext 5', 'US', '+12015550123'],
    ['+44 20 7946 0958', 'US', '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['030 123456', 'DE', '+4930123456'],
  ] as const)('reads %s in %s as %s', (typed, country, stored) => {
    expect(normalisePhone(typed, country)).toBe(stored);
    expect(isStoredPhone(stored)).toBe(true);
  });

  it.each(['555-0142', '12', 'call me', '+1 000 000 0000'])('refuses %s', (typed) => {
    expect(normalisePhone(typed, 'US')).toBeNull();
    const parsed = phoneFieldSchema('US').safeParse(typed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(crmMessages.invalidPhone);
  });

  it('stores only E.164', () => {
    expect(isStoredPhone('(201) 555-0123')).toBe(false);
    expect(isStoredPhone('+12015550123')).toBe(true);
  });

  it('shows a number nationally in its own country and internationally elsewhere', () => {
    expect(displayPhone('+12015550123', 'US')).toBe('(201) 555-0123');
    expect(displayPhone('+442079460958', 'GB')).toBe('020 7946 0958');
    expect(displayPhone('+442079460958', 'US')).toBe('+44 20 7946 0958');
    // Stored before numbers were checked: shown as it is.
    expect(displayPhone('555-0142', 'US')).toBe('555-0142');
  });

  it('is one rule in the add-customer request, with the organisation’s country', () => {
    const base = { customerEmail: 'a@example.com' };
    expect(
      addCustomerRequestSchemaFor('GB').parse({ ...base, customerPhone: '020 7946 0958' })
        .customerPhone,
    ).toBe('+442079460958');
    expect(addCustomerRequestSchemaFor('US').parse(base).customerPhone).toBe('');
    const refused = addCustomerRequestSchemaFor('US').safeParse({ ...base, customerPhone: '12' });
    expect(refused.error?.issues).toMatchObject([
      { path: ['customerPhone'], message: crmMessages.invalidPhone },
    ]);
  });
});
