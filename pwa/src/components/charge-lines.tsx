import type { ReactNode } from 'react';

/** What a line of a totaled or paid invoice shows (spec §3 line items). */
export type ChargeLine = {
  type: string;
  description: string;
  originalAmount: number;
  finalAmount: number;
  discountAmount: number;
  discountPercent: number | null;
  prorationDescription: string | null;
};

/**
 * The lines of an invoice, each with its discount and proration: the charge modal's order
 * summary, an invitation's first charge, the Shop's checkout and Purchase history's receipts.
 * `children` adds a footer (the total) where the table has one.
 */
export function ChargeLines(props: {
  caption: string;
  captionHidden?: boolean;
  lines: readonly ChargeLine[];
  money: (minor: number) => string;
  children?: ReactNode;
}) {
  const { money } = props;
  return (
    <table className="charge-lines">
      <caption className={props.captionHidden ? 'visually-hidden' : undefined}>
        {props.caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {props.lines.map((line, index) => (
          <tr key={`${line.type}-${index}`}>
            <th scope="row">
              {line.description}
              {line.discountAmount > 0 && (
                <span className="field-hint charge-note">
                  {money(line.originalAmount)}, discount −{money(line.discountAmount)}
                  {line.discountPercent !== null ? ` (${line.discountPercent}%)` : ''}
                </span>
              )}
              {line.prorationDescription && (
                <span className="field-hint charge-note">{line.prorationDescription}</span>
              )}
            </th>
            <td>{money(line.finalAmount)}</td>
          </tr>
        ))}
      </tbody>
      {props.children}
    </table>
  );
}
