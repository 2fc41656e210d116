import { z } from 'zod';
import { PERSON_NAME_MAX } from '../app/constants.ts';
import { childEntrySchema, fieldErrorSchema } from '../auth/auth.zod.ts';
import { guardianMessages } from './families.messages.ts';

const trimmed = z.string().trim();

/** More rows than any family form has: bounds the work of one (public) validate-child call. */
export const MAX_CHILDREN_PER_REQUEST = 50;
const childRows = z.array(z.unknown()).min(1).max(MAX_CHILDREN_PER_REQUEST);

/**
 * spec §3 Guardian; also the shape of a child in get-guardians-of. Children may have no email.
 * `awaitingConfirmation`: the link waits for the child's owner to confirm it (decision 0035) —
 * until then it gives the guardian no power over the child.
 */
export const familyMemberSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  /** Issue 14: 'YYYY-MM-DD' when known (children); staff and the guardian see the age. */
  dateOfBirth: z.iso.date().nullable().optional(),
  awaitingConfirmation: z.boolean().optional(),
});
export type FamilyMember = z.infer<typeof familyMemberSchema>;

/** spec §5 Guardian add. */
export const guardianSignupDtoSchema = z.object({
  email: trimmed.pipe(z.email(guardianMessages.invalidEmail)),
  firstName: trimmed
    .min(1, guardianMessages.firstNameRequired)
    .max(PERSON_NAME_MAX, `Names must be at most ${PERSON_NAME_MAX} characters.`),
  lastName: trimmed
    .min(1, guardianMessages.lastNameRequired)
    .max(PERSON_NAME_MAX, `Names must be at most ${PERSON_NAME_MAX} characters.`),
});
export type GuardianSignupDto = z.infer<typeof guardianSignupDtoSchema>;

/** spec §7 POST /api/guardians: the payload fields sit beside `action`. */
export const guardiansRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('get-guardians'), userId: z.uuid() }),
  z.object({ action: z.literal('get-guardians-of'), guardianUserId: z.uuid() }),
  z.object({
    action: z.literal('add-guardian'),
    userId: z.uuid(),
    signupDto: guardianSignupDtoSchema,
    skipResetPasswordMail: z.boolean().optional().default(false),
  }),
  z.object({ action: z.literal('remove-guardian'), userId: z.uuid(), guardianUserId: z.uuid() }),
  /** The owner of an account confirms a guardian someone else linked (decision 0035). */
  z.object({ action: z.literal('confirm-guardian'), userId: z.uuid(), guardianUserId: z.uuid() }),
]);
export type GuardiansRequest = z.input<typeof guardiansRequestSchema>;

/** get-guardians → the user's guardians; get-guardians-of → the children of that guardian. */
export const familyMembersResponseSchema = z.array(familyMemberSchema);
/** add-guardian → the guardian (linked or newly created). */
export const addGuardianResponseSchema = familyMemberSchema;
export const okResponseSchema = z.object({ success: z.literal(true) });

/** spec §7 create-account validate-child. */
export const validateChildRequestSchema = z.object({
  action: z.literal('validate-child'),
  guardianEmail: z.string().optional().default(''),
  children: childRows,
  /** True when the guardian already has an account (their email is not checked). */
  validateChildrenOnly: z.boolean().optional().default(false),
});
export const validateChildResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** `field` is e.g. `children.1.email` or `guardianEmail`. */
  errors: z.array(fieldErrorSchema),
});
export type ValidateChildResponse = z.infer<typeof validateChildResponseSchema>;

/** spec §3 Child account create, §7 create-children. */
export const createChildrenRequestSchema = z.object({
  action: z.literal('create-children'),
  guardianUserId: z.uuid(),
  signupDtos: childRows,
  skipResetPasswordMail: z.boolean().optional().default(false),
});
/** create-children → the created users. A 400 answers `{ message: 'The form is invalid', errors }`. */
export const createChildrenResponseSchema = z.array(familyMemberSchema);
export const familyFormInvalidSchema = z.object({
  message: z.string(),
  errors: z.array(fieldErrorSchema),
});

/** spec §3 Attach child, §7 attach-child-to-guardian. */
export const attachChildRequestSchema = z.object({
  action: z.literal('attach-child-to-guardian'),
  guardianUserId: z.uuid(),
  childUserId: z.uuid(),
});

/** The child rows of the modal and of create-children: spec §5 Child. */
export const childEntriesSchema = z.array(childEntrySchema).min(1);
