import { Link } from 'react-router';

export function AccessDenied({ title, reason }: { title: string; reason: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p role="alert">{reason}</p>
      <p>
        <Link to="/dashboard">Back to your dashboard</Link>
      </p>
    </section>
  );
}
