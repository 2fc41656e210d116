import { describe, expect, it } from 'vitest';
import { childMessages } from '@platform/schema/auth/auth.messages';
import {
  childFieldPath,
  childrenFormSchema,
  describeChildError,
  emptyChildrenForm,
  toChildEntries,
} from './children-form.ts';

describe('the add-children form', () => {
  it('starts with one empty row and the invite email on (spec §5, §9)', () => {
    expect(emptyChildrenForm()).toEqual({
      children: [{ firstName: '', lastName: '', email: '', dateOfBirth: '' }],
      sendPasswordEmail: true,
    });
  });

  it('refuses an empty row and a bad email with the spec §5 Child messages', () => {
    const result = childrenFormSchema.safeParse({
      children: [
        { firstName: '', lastName: '', email: '' },
        { firstName: 'Riley', lastName: 'Parent', email: 'not-an-email' },
      ],
      sendPasswordEmail: true,
    });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toEqual([
      ['children.0.firstName', childMessages.firstNameRequired],
      ['children.0.lastName', childMessages.lastNameRequired],
      ['children.1.email', childMessages.invalidEmail],
    ]);
  });

  it('sends no empty email, and places the server’s errors on the right row', () => {
    const form = childrenFormSchema.parse({
      children: [
        { firstName: ' Jamie ', lastName: 'Parent', email: '', dateOfBirth: '2017-05-04' },
        { firstName: 'Riley', lastName: 'Parent', email: 'riley@example.test' },
      ],
      sendPasswordEmail: false,
    });
    expect(toChildEntries(form)).toEqual([
      { firstName: 'Jamie', lastName: 'Parent', dateOfBirth: '2017-05-04' },
      { firstName: 'Riley', lastName: 'Parent', email: 'riley@example.test' },
    ]);
    expect(childFieldPath({ field: 'signupDtos.0.dateOfBirth', message: 'x' })).toBe(
      'children.0.dateOfBirth',
    );
    const taken = { field: 'signupDtos.1.email', message: 'Taken.' };
    expect(childFieldPath(taken)).toBe('children.1.email');
    expect(childFieldPath({ field: 'children.0.firstName', message: 'x' })).toBe(
      'children.0.firstName',
    );
    expect(childFieldPath({ field: 'signupDtos', message: 'x' })).toBeNull();
    expect(describeChildError(taken)).toBe('Child 2, email: Taken.');
    expect(describeChildError({ field: 'signupDtos', message: 'Taken.' })).toBe('Taken.');
  });
});
