import { Link } from 'react-router';
import {
  setupSteps,
  upcomingSetupSteps,
  type OrgHome,
} from '@platform/schema/organizations/org-home.zod';

/**
 * The owner's first day (issue 14): what to set up, in order, with progress. Only the steps this
 * person's claims cover; products and schedule are named as coming, not offered as links.
 */
export function SetupChecklist({ setup }: { setup: OrgHome['setup'] }) {
  const steps = setupSteps.flatMap((step) => {
    const done = setup[step.key];
    return done === null ? [] : [{ ...step, done }];
  });
  if (steps.length === 0) return null;
  const doneCount = steps.filter((step) => step.done).length;
  if (doneCount === steps.length) return null;
  return (
    <section className="card setup-checklist" aria-labelledby="setup-heading">
      <h2 id="setup-heading">Set up your business</h2>
      <p id="setup-progress-label">
        {doneCount} of {steps.length} done
      </p>
      <progress max={steps.length} value={doneCount} aria-labelledby="setup-progress-label" />
      <ol>
        {steps.map((step) => (
          <li key={step.key} data-done={step.done || undefined}>
            {step.done ? (
              <span>
                <span aria-hidden="true">✓ </span>
                {step.label}
                <span className="sr-only"> (done)</span>
              </span>
            ) : (
              <Link to={step.path}>{step.label}</Link>
            )}
          </li>
        ))}
        {upcomingSetupSteps.map((label) => (
          <li key={label} className="setup-upcoming">
            {label} <span className="setup-soon">coming soon</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
