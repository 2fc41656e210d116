import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  createOrganizationInputSchema,
  organizationMessages,
  type CreateOrganizationInput,
} from '@platform/schema/organizations/organizations.zod';
import { useToast } from '../../../components/toast/toast-context.ts';
import { NetworkError } from '../../../lib/api.ts';
import { createOrganization } from '../api/create-organization.ts';

const fieldNames = ['companyName', 'companyLocation'] as const;

export function CreateOrganizationForm({ onCreated }: { onCreated: () => void }) {
  const toast = useToast();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateOrganizationInput>({ resolver: zodResolver(createOrganizationInputSchema) });

  const submit = handleSubmit(async (input) => {
    try {
      const result = await createOrganization(input);
      if (!result.ok) {
        for (const error of result.errors) {
          const field = fieldNames.find((name) => name === error.field) ?? 'root';
          setError(field, { message: error.message });
        }
        return;
      }
      toast.success(organizationMessages.created);
      onCreated();
    } catch (error) {
      const message =
        error instanceof NetworkError
          ? 'You are offline. Creating an organization needs a connection.'
          : 'The organization could not be created. Please try again.';
      setError('root', { message });
    }
  });

  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate>
      {errors.root && (
        <p className="form-error" role="alert">
          {errors.root.message}
        </p>
      )}
      <div className="field">
        <label htmlFor="org-company-name">Company name</label>
        <input
          id="org-company-name"
          autoComplete="organization"
          aria-invalid={errors.companyName ? true : undefined}
          aria-describedby={errors.companyName ? 'org-company-name-error' : undefined}
          {...register('companyName')}
        />
        {errors.companyName && (
          <p id="org-company-name-error" className="field-error">
            {errors.companyName.message}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="org-company-location">Location (optional)</label>
        <input
          id="org-company-location"
          autoComplete="address-level2"
          {...register('companyLocation')}
        />
      </div>
      <div className="button-row">
        <button type="submit" className="button" disabled={isSubmitting}>
          {isSubmitting ? 'Creating…' : 'Create organization'}
        </button>
      </div>
    </form>
  );
}
