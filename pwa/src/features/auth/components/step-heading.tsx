import { useEffect, useRef, type ReactNode } from 'react';

type StepHeadingProps = { children: ReactNode; step?: string | undefined; focusOnMount?: boolean };

/** A step's heading; after the person moves between steps, focus lands here (not on load). */
export function StepHeading({ children, step, focusOnMount = false }: StepHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <div className="auth-step__header">
      {step && <p className="auth-step__count">{step}</p>}
      <h2 ref={ref} tabIndex={-1} className="auth-step__title">
        {children}
      </h2>
    </div>
  );
}
