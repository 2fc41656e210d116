import { useState } from 'react';
import type { CustomerMetric } from '@platform/schema/crm/crm.zod';
import { dayKeyOf } from '@platform/schema/time-tracking/org-calendar';
import { useOrgFormat } from '../../../lib/use-org-format.ts';
import { addCustomerMetric } from '../api/customer-details.ts';

/** The organisation's today, not the device's. */
const today = (timeZone: string) => dayKeyOf(Date.now(), timeZone);

type Props = {
  rosterId: string;
  metrics: CustomerMetric[];
  onAdded: (metric: CustomerMetric) => void;
  online: boolean;
};

/** Measurements staff record for a customer (weight, a lift, …): name, value, day. */
export function CustomerMetrics({ rosterId, metrics, onAdded, online }: Props) {
  const format = useOrgFormat();
  const zone = format.region.timeZone;
  const [draft, setDraft] = useState(() => ({ name: '', value: '', measuredOn: today(zone) }));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      onAdded(await addCustomerMetric(rosterId, draft));
      setDraft({ name: '', value: '', measuredOn: today(zone) });
    } catch {
      setFailure('We could not save this metric. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  const ready = draft.name.trim() !== '' && draft.value.trim() !== '' && draft.measuredOn !== '';
  return (
    <section className="crm-card" aria-labelledby="crm-metrics-heading">
      <h2 id="crm-metrics-heading">Metrics</h2>
      {metrics.length === 0 ? (
        <p className="crm-muted">No metrics yet.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Value</th>
              <th scope="col">Measured</th>
            </tr>
          </thead>
          <tbody>
            {metrics.map((metric) => (
              <tr key={metric.id}>
                <th scope="row">{metric.name}</th>
                <td>{metric.value}</td>
                <td>{format.date(metric.measuredOn)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        className="crm-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {(['name', 'value'] as const).map((key) => (
          <div className="field" key={key}>
            <label htmlFor={`crm-metric-${key}`}>{key === 'name' ? 'Metric' : 'Value'}</label>
            <input
              id={`crm-metric-${key}`}
              value={draft[key]}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor="crm-metric-day">Measured on</label>
          <input
            id="crm-metric-day"
            type="date"
            value={draft.measuredOn}
            onChange={(e) => setDraft({ ...draft, measuredOn: e.target.value })}
          />
        </div>
        <button
          type="submit"
          className="button button-secondary"
          disabled={!online || saving || !ready}
        >
          {saving ? 'Saving…' : 'Add metric'}
        </button>
      </form>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
