import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Counters;
  }
}

type Labels = Record<string, string>;

/**
 * Counters of things an operator should hear about but no request fails for (a stored row a
 * pull had to skip). Per process, as Prometheus counters are: each server instance counts
 * what it saw, and a scraper sums them; they start again at 0 with the process.
 */
export class Counters {
  private readonly values = new Map<string, { name: string; labels: Labels; value: number }>();

  add(name: string, labels: Labels = {}, by = 1): void {
    const key = `${name}${labelText(labels)}`;
    const counter = this.values.get(key) ?? { name, labels, value: 0 };
    counter.value += by;
    this.values.set(key, counter);
  }

  /** The Prometheus text exposition format (version 0.0.4). */
  text(): string {
    const byName = new Map<string, string[]>();
    for (const [key, { name, value }] of [...this.values].sort(([a], [b]) => a.localeCompare(b)))
      byName.set(name, [...(byName.get(name) ?? []), `${key} ${value}`]);
    return [...byName]
      .map(([name, lines]) => [`# TYPE ${name} counter`, ...lines].join('\n'))
      .map((block) => `${block}\n`)
      .join('');
  }
}

const labelText = (labels: Labels) => {
  const pairs = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (pairs.length === 0) return '';
  const escape = (value: string) =>
    value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
  return `{${pairs.map(([key, value]) => `${key}="${escape(value)}"`).join(',')}}`;
};

/**
 * `app.metrics`, and GET /metrics for a scraper. Public like /healthz: counts only, no data of
 * any organisation.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const counters = new Counters();
    app.decorate('metrics', counters);
    app.get('/metrics', async (_request, reply) =>
      reply.type('text/plain; version=0.0.4; charset=utf-8').send(counters.text()),
    );
  },
  { name: 'metrics' },
);
