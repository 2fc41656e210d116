import { useId } from 'react';
import type { Claim } from '@platform/schema/organizations/claims';
import {
  claimGroups,
  CUSTOM_ROLE_LABEL,
  normaliseClaims,
  roleIds,
  roleOf,
  roles,
} from '@platform/schema/team/team.rules';

type Props = {
  value: readonly Claim[];
  onChange: (claims: Claim[]) => void;
  /** What the person choosing holds: nobody gives more (team.rules.ts). */
  grantable: readonly string[];
  /** What the member holds already: may stay, even where the chooser lacks it. */
  kept?: readonly string[];
  error?: string | undefined;
};

/**
 * What a member may do: a role to start from, then every claim of the spec in plain words,
 * grouped, each its own checkbox. A choice that matches no role shows as Custom.
 */
export function ClaimsEditor({ value, onChange, grantable, kept = [], error }: Props) {
  const id = useId();
  const role = roleOf(value);
  const mayHave = (claim: Claim) => grantable.includes(claim) || kept.includes(claim);
  const toggle = (claim: Claim, on: boolean) =>
    onChange(normaliseClaims(on ? [...value, claim] : value.filter((held) => held !== claim)));
  const errorId = error ? `${id}-error` : undefined;

  return (
    <div className="claims-editor">
      <fieldset className="role-choice">
        <legend>Role</legend>
        {roleIds.map((roleId) => {
          const available = roles[roleId].claims.every(mayHave);
          return (
            <div key={roleId} className="role-option">
              <input
                type="radio"
                id={`${id}-${roleId}`}
                name={`${id}-role`}
                checked={role === roleId}
                disabled={!available}
                aria-describedby={`${id}-${roleId}-what`}
                onChange={() => onChange([...roles[roleId].claims])}
              />
              <label htmlFor={`${id}-${roleId}`}>{roles[roleId].label}</label>
              <p id={`${id}-${roleId}-what`} className="team-muted">
                {roles[roleId].description}
                {!available && ' You cannot give all of this yourself.'}
              </p>
            </div>
          );
        })}
        {role === null && (
          <p className="team-muted" aria-live="polite">
            {CUSTOM_ROLE_LABEL}: the permissions chosen below.
          </p>
        )}
      </fieldset>
      <fieldset className="claim-choice" aria-describedby={errorId}>
        <legend>What they may do</legend>
        {claimGroups.map((group) => (
          <fieldset key={group.label} className="claim-group">
            <legend>{group.label}</legend>
            {group.claims.map(({ claim, label }) => (
              <div key={claim} className="claim-option">
                <input
                  type="checkbox"
                  id={`${id}-${claim}`}
                  checked={value.includes(claim)}
                  disabled={!mayHave(claim)}
                  onChange={(event) => toggle(claim, event.target.checked)}
                />
                <label htmlFor={`${id}-${claim}`}>
                  {label}
                  {!mayHave(claim) && <span className="sr-only"> (you cannot give this)</span>}
                </label>
              </div>
            ))}
          </fieldset>
        ))}
      </fieldset>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
