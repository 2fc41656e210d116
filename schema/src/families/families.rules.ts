import { childEntrySchema, type ChildEntry, type FieldError } from '../auth/auth.zod.ts';
import { familyMessages } from './families.messages.ts';

/** How addresses compare everywhere (users.email is stored lower-cased). */
export function normalEmail(email: string | null | undefined): string | null {
  const value = email?.trim().toLowerCase();
  return value ? value : null;
}

/**
 * spec §5 Child, row by row. Errors name the row the way a form does: `${prefix}.1.email`.
 * A row that fails is null in `entries`.
 */
export function parseChildEntries(
  rows: readonly unknown[],
  prefix: string,
): { entries: Array<ChildEntry | null>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const entries = rows.map((row, index) => {
    const parsed = childEntrySchema.safeParse(row);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      errors.push({ field: [prefix, index, ...issue.path].join('.'), message: issue.message });
    return null;
  });
  return { entries, errors };
}

/**
 * The rules a list of children's addresses obeys together: none repeats within the list, none
 * is the guardian's own. `emails` are normalised, null for a child without one. Whether an
 * address already has an account is not a rule: such a child is asked to confirm the guardian
 * (decision 0035), so the form tells nobody whose address is in use.
 */
export function childEmailErrors(
  emails: ReadonlyArray<string | null>,
  options: { prefix: string; guardianEmail: string | null },
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  emails.forEach((email, index) => {
    if (!email) return;
    const field = `${options.prefix}.${index}.email`;
    if (email === options.guardianEmail)
      errors.push({ field, message: familyMessages.childEmailIsGuardians });
    else if (seen.has(email)) errors.push({ field, message: familyMessages.childEmailRepeated });
    seen.add(email);
  });
  return errors;
}
