import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Link } from 'react-router';
import { crmMessages, inviteMessages } from '@platform/schema/crm/crm.messages';
import { displayPhone } from '@platform/schema/crm/phone.rules';
import {
  type addCustomerRequestSchema,
  addCustomerRequestSchemaFor,
  alreadyCustomerResponseSchema,
  type AddCustomerRequest,
  type AddCustomerResponse,
} from '@platform/schema/crm/crm.zod';
import { FormNotice } from '../../../components/form-notice.tsx';
import { SwitchField, TextField } from '../../../components/form-fields.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { addCustomer } from '../api/add-customer.ts';
import { fullNameOf, type CrmCustomer } from '../crm-customer.ts';
import { noProductPart, type ProductPart, type ProductPartState } from '../product-part.ts';
import { InvitationOutcomeNotice, type InvitationOutcome } from './invitation-outcome.tsx';
import { PostInviteActions, type CustomerAction } from './post-invite-actions.tsx';
import { ResendInvitationButton } from './resend-invitation-button.tsx';

type FormValues = z.input<typeof addCustomerRequestSchema>;
const emptyForm: Required<FormValues> = {
  customerEmail: '',
  customerPhone: '',
  customerFirstName: '',
  customerLastName: '',
  externalPayments: false,
  sendInviteEmails: true,
};
/** Issue 14: numbers of the organisation's country need no country code. */
const phoneHint = 'Numbers from abroad start with + and their country code.';
const fieldNames = [
  'customerEmail',
  'customerPhone',
  'customerFirstName',
  'customerLastName',
] as const;

export type AddCustomerDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** spec §2: with a preselected customer the title is 'Invite customer to product'. */
  preselected?: {
    rosterId: string;
    userId: string;
    email: string;
    firstName: string;
    lastName: string;
    phone: string | null;
  };
  /**
   * Product, price, start and coupon (features/products via app/), for staff who sell: sent as
   * an invitation once the customer exists.
   */
  productPart?: ProductPart;
  /**
   * spec §4: closing after creation reloads the page unless a sent-invite callback is given
   * (the roster page reloads its roster instead).
   */
  onSent?: (customer: CrmCustomer) => void;
  /** Post-invite: View customer profile (not with a preselected customer). */
  onViewProfile?: (customer: CrmCustomer) => void;
  /** Post-invite: another action on the customer, e.g. 'Manage child accounts' (composed in app/). */
  customerAction?: CustomerAction;
  /** Post-invite with a preselected customer: Reload customer profile. */
  onReloadProfile?: () => void;
};

const customerOf = (created: AddCustomerResponse): CrmCustomer => ({
  rosterId: created.id,
  userId: created.athlete.id,
  name: created.athlete.fullName || created.athlete.email || created.invitedPerson.email,
  email: created.athlete.email,
});

/** What a refusal says: field errors beside their fields, others above the form (spec §8). */
function failureOf(error: unknown): { text: string; fields: { field: string; message: string }[] } {
  if (error instanceof NetworkError)
    return { text: 'You are offline. Adding a customer needs a connection.', fields: [] };
  if (error instanceof ApiError && error.status < 500) {
    const body = error.body as { message?: unknown; errors?: unknown } | null;
    const fields = Array.isArray(body?.errors)
      ? (body.errors as { field: string; message: string }[])
      : [];
    return { text: typeof body?.message === 'string' ? body.message : error.message, fields };
  }
  return { text: inviteMessages.creationFailed, fields: [] };
}

/**
 * spec §2 'Add customer' modal, §4 Invite dialog states, §5 Invite rules: email, optional
 * phone, names (required only with external payments), 'Send invite emails' (on by default).
 * After creation the button says Sent! and the post-invite actions appear; editing any field
 * clears that created state again.
 */
export function AddCustomerDialog(props: AddCustomerDialogProps) {
  const { open, onOpenChange, preselected, onSent } = props;
  // The phone is read as the server reads it: a number of the organisation's country.
  const { country } = useOrgFormat().region;
  const defaults: Required<FormValues> = preselected
    ? {
        ...emptyForm,
        customerEmail: preselected.email,
        customerFirstName: preselected.firstName,
        customerLastName: preselected.lastName,
        customerPhone: preselected.phone ? displayPhone(preselected.phone, country) : '',
      }
    : emptyForm;
  const form = useForm<FormValues, unknown, AddCustomerRequest>({
    resolver: zodResolver(addCustomerRequestSchemaFor(country)),
    mode: 'onTouched',
    defaultValues: defaults,
  });
  const [created, setCreated] = useState<CrmCustomer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Issue 14: the address is on the list already — said once, with the way to its profile. */
  const [onList, setOnList] = useState<{ rosterId: string; invitationPending: boolean } | null>(
    null,
  );
  const { errors, isSubmitting, isValid } = form.formState;
  const [part, setPart] = useState<ProductPartState>(noProductPart);
  const [invitation, setInvitation] = useState<InvitationOutcome | null>(null);

  // spec §4: editing a field after creation clears the created state.
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: ({ type }) => {
          if (type === 'change') {
            setCreated(null);
            setInvitation(null);
          }
        },
      }),
    [form],
  );

  const sendInvitation = async (customer: CrmCustomer) => {
    if (!part.send) return;
    setInvitation({ status: 'sending' });
    try {
      setInvitation({ status: 'sent', message: await part.send(customer.rosterId) });
    } catch (error) {
      setInvitation({ status: 'failed', error });
    }
  };
  const customerReady = async (customer: CrmCustomer) => {
    setCreated(customer);
    await sendInvitation(customer);
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    setOnList(null);
    setInvitation(null);
    try {
      await customerReady(customerOf(await addCustomer(values)));
    } catch (error) {
      const already =
        error instanceof ApiError && error.status === 409
          ? alreadyCustomerResponseSchema.safeParse(error.body)
          : null;
      // A preselected customer is on the list already: the 409 names them, and that is them.
      if (already?.success && preselected?.rosterId === already.data.details.rosterId) {
        await customerReady({
          rosterId: preselected.rosterId,
          userId: preselected.userId,
          name: fullNameOf(preselected),
          email: preselected.email,
        });
        return;
      }
      if (already?.success) {
        setOnList(already.data.details);
        return;
      }
      const { text, fields } = failureOf(error);
      const unplaced: string[] = [];
      for (const { field, message } of fields) {
        const name = fieldNames.find((f) => field.split('.').at(-1) === f);
        if (name) form.setError(name, { message }, { shouldFocus: true });
        else unplaced.push(message);
      }
      if (fields.length === 0 || unplaced.length > 0) setFailure(unplaced[0] ?? text);
    }
  });

  const close = () => {
    onOpenChange(false);
    if (!created) return;
    if (onSent) onSent(created);
    else window.location.reload();
  };
  const addAnother = () => {
    form.reset(emptyForm);
    setCreated(null);
    setFailure(null);
    setInvitation(null);
  };
  const externalPayments = useWatch({ control: form.control, name: 'externalPayments' });
  const title = preselected ? 'Invite customer to product' : 'Add customer';

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={title}
      description="They get an email inviting them to set up their account."
    >
      <form className="form crm-add-customer" noValidate onSubmit={(event) => void submit(event)}>
        <FormNotice notice={failure ? { tone: 'error', text: failure } : null} />
        {onList && (
          <p className="form-error" role="alert">
            {crmMessages.alreadyCustomer}
            {onList.invitationPending ? ' (invitation not yet accepted)' : ''}.{' '}
            <Link to={`/dashboard/crm/redirect?rosterId=${encodeURIComponent(onList.rosterId)}`}>
              Open profile
            </Link>
          </p>
        )}
        {onList?.invitationPending && (
          <ResendInvitationButton
            rosterId={onList.rosterId}
            email={form.getValues('customerEmail')}
          />
        )}
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          required
          error={errors.customerEmail?.message}
          {...form.register('customerEmail')}
        />
        <TextField
          label="Phone (optional)"
          type="tel"
          autoComplete="off"
          hint={phoneHint}
          error={errors.customerPhone?.message}
          {...form.register('customerPhone')}
        />
        <SwitchField
          label="External payments"
          hint="They pay outside the platform; you keep notes and metrics only. Names are then required."
          {...form.register('externalPayments', {
            // The names' rule depends on this switch: check them again once they were touched.
            onChange: () =>
              void form.trigger(
                ['customerFirstName', 'customerLastName'].filter(
                  (name) => name in form.formState.touchedFields,
                ) as ('customerFirstName' | 'customerLastName')[],
              ),
          })}
        />
        <div className="crm-name-fields">
          <TextField
            label={externalPayments ? 'First name' : 'First name (optional)'}
            autoComplete="off"
            required={externalPayments}
            error={errors.customerFirstName?.message}
            {...form.register('customerFirstName')}
          />
          <TextField
            label={externalPayments ? 'Last name' : 'Last name (optional)'}
            autoComplete="off"
            required={externalPayments}
            error={errors.customerLastName?.message}
            {...form.register('customerLastName')}
          />
        </div>
        <SwitchField label="Send invite emails" {...form.register('sendInviteEmails')} />
        {props.productPart?.((next) => {
          setPart(next);
          // spec §4: editing after creation clears the created state — the product part too.
          setCreated(null);
          setInvitation(null);
        })}
        {props.productPart && part.send && externalPayments && (
          <p className="crm-muted" role="note">
            The subscription will be recorded as paid outside the platform: no card is charged and
            no payment link is sent.
          </p>
        )}
        <div className="button-row">
          <button
            type="submit"
            className={created ? 'button button-confirmed' : 'button'}
            disabled={!isValid || !part.ready || isSubmitting || created !== null}
            aria-busy={isSubmitting ? true : undefined}
          >
            {created
              ? 'Sent!'
              : isSubmitting
                ? 'Creating…'
                : preselected && part.send
                  ? 'Send invitation'
                  : 'Create customer'}
          </button>
        </div>
        {created && invitation && (
          <InvitationOutcomeNotice
            outcome={invitation}
            onRetry={() => void sendInvitation(created)}
          />
        )}
        {created && (
          <PostInviteActions
            customer={created}
            preselected={preselected !== undefined}
            onViewProfile={props.onViewProfile}
            customerAction={props.customerAction}
            onAddAnother={addAnother}
            onReloadProfile={props.onReloadProfile}
            onClose={close}
          />
        )}
      </form>
    </Modal>
  );
}
