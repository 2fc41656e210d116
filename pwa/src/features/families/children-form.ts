import { z } from 'zod';
import { emptyChildRow } from '@platform/schema/auth/signup-form.rules';
import type { ChildEntry, FieldError } from '@platform/schema/auth/auth.zod';
import { childEntriesSchema } from '@platform/schema/families/families.zod';

/** The add-children form: the spec §5 Child rules per row, at least one row. */
export const childrenFormSchema = z.object({
  children: childEntriesSchema,
  // spec §9: invite emails are on unless turned off.
  sendPasswordEmail: z.boolean(),
});
export type ChildrenForm = z.input<typeof childrenFormSchema>;
export type ChildrenFormOutput = z.output<typeof childrenFormSchema>;

export const emptyChildrenForm = (): ChildrenForm => ({
  children: [{ ...emptyChildRow }],
  sendPasswordEmail: true,
});

/** The rows as create-children and validate-child take them: no empty email. */
export function toChildEntries(form: ChildrenFormOutput): ChildEntry[] {
  return form.children.map(({ firstName, lastName, email, dateOfBirth }) => ({
    firstName,
    lastName,
    ...(email ? { email } : {}),
    ...(dateOfBirth ? { dateOfBirth } : {}),
  }));
}

const rowFields = ['firstName', 'lastName', 'email', 'dateOfBirth'] as const;
type RowField = (typeof rowFields)[number];
export type ChildFieldPath = `children.${number}.${RowField}`;

/** A server error's field (`children.1.email`) as a form path, or null when it names no row field. */
export function childFieldPath(error: FieldError): ChildFieldPath | null {
  const match = /(?:^|\.)(?:children|signupDtos)\.(\d+)\.(\w+)$/.exec(error.field);
  const field = rowFields.find((name) => name === match?.[2]);
  return match && field ? `children.${Number(match[1])}.${field}` : null;
}

/** 'Child 2, email: …' — where a listed server error belongs. */
export function describeChildError(error: FieldError): string {
  const match = /(?:children|signupDtos)\.(\d+)\.(\w+)$/.exec(error.field);
  if (!match) return error.message;
  const labels: Record<string, string> = {
    firstName: 'first name',
    lastName: 'last name',
    email: 'email',
    dateOfBirth: 'date of birth',
  };
  const label = labels[match[2] ?? ''];
  return `Child ${Number(match[1]) + 1}${label ? `, ${label}` : ''}: ${error.message}`;
}
