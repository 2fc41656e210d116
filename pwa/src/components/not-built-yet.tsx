import type { ReactNode } from 'react';

/** The honest placeholder for a screen a later issue fills in. */
export function NotBuiltYet({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="page not-built">
      <h1>{title}</h1>
      <p>This part of the platform is not built yet.</p>
      {children}
    </section>
  );
}
