import { describe, expect, it } from 'vitest';
import { childMessages } from '../auth/auth.messages.ts';
import { familyMessages } from './families.messages.ts';
import { childEmailErrors, normalEmail, parseChildEntries } from './families.rules.ts';

describe('family rules', () => {
  it('normalises addresses, and treats a blank one as none', () => {
    expect(normalEmail('  Pat@Example.TEST ')).toBe('pat@example.test');
    expect(normalEmail('   ')).toBeNull();
    expect(normalEmail(undefined)).toBeNull();
  });

  it('checks each child row (spec §5 Child) and names the row', () => {
    const { entries, errors } = parseChildEntries(
      [
        { firstName: 'Ada', lastName: 'Lee' },
        { firstName: '', lastName: 'Lee', email: 'bad' },
      ],
      'children',
    );
    expect(entries[0]).toEqual({ firstName: 'Ada', lastName: 'Lee' });
    expect(entries[1]).toBeNull();
    expect(errors).toEqual([
      { field: 'children.1.email', message: childMessages.invalidEmail },
      { field: 'children.1.firstName', message: childMessages.firstNameRequired },
    ]);
  });

  it("refuses the guardian's address and a repeat, once each — never tells whether one is in use", () => {
    const errors = childEmailErrors(['g@x.test', 'a@x.test', null, 'a@x.test', 'taken@x.test'], {
      prefix: 'signupDtos',
      guardianEmail: 'g@x.test',
    });
    expect(errors).toEqual([
      { field: 'signupDtos.0.email', message: familyMessages.childEmailIsGuardians },
      { field: 'signupDtos.3.email', message: familyMessages.childEmailRepeated },
    ]);
  });
});
