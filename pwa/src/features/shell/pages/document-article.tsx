import type { ReactNode } from 'react';

export function DocumentArticle({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="page document">
      <h1>{title}</h1>
      {children}
    </article>
  );
}
