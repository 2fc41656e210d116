import type { ReactNode } from 'react';
import '../auth.css';

type AuthCardProps = {
  title: string;
  subtitle?: ReactNode;
  /** A panel shown beside the card on wide screens (the signup testimonials). */
  aside?: ReactNode;
  children: ReactNode;
};

/** The frame every auth page shares: one card with its page heading. */
export function AuthCard({ title, subtitle, aside, children }: AuthCardProps) {
  return (
    <div className={`auth-page${aside ? ' auth-page--split' : ''}`}>
      {aside}
      <section className="auth-card" aria-labelledby="auth-card-title">
        <h1 id="auth-card-title" className="auth-card__title">
          {title}
        </h1>
        {subtitle && <div className="auth-card__subtitle">{subtitle}</div>}
        {children}
      </section>
    </div>
  );
}
