/**
 * Settings → Dates in captions: how this library reads numeric dates such as 7/4/1906. A date
 * that reads one way only (25/12/1906) is read that way whatever is chosen; the photo screen
 * always says which reading it used and offers the other.
 */
import type { Settings } from '../../../../shared/contract';

type Order = Settings['numericDateOrder'];

const ORDERS: { value: Order; label: string; hint: string }[] = [
  {
    value: 'undecided',
    label: 'Undecided: keep both readings',
    hint: '7/4/1906 covers 7 April to 4 July 1906 until you choose.',
  },
  { value: 'month-first', label: 'Month first (7/4/1906 is 4 July)', hint: 'As in the United States.' },
  { value: 'day-first', label: 'Day first (7/4/1906 is 7 April)', hint: 'As in Britain and most of Europe.' },
];

export function NumericDateOrderField({ value, onChange }: { value: Order; onChange(order: Order): void }) {
  const chosen = ORDERS.find((o) => o.value === value) ?? ORDERS[0];
  return (
    <fieldset>
      <legend>Dates in captions</legend>
      <label className="field">
        <span>Numeric dates</span>
        <select value={value} onChange={(e) => onChange(e.target.value as Order)} data-testid="numeric-date-order">
          {ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <p className="field-note">
        {chosen.hint} A date that reads one way only (25/12/1906) is read that way whatever you choose; the photo screen says
        which reading it used and offers the other. Month names, seasons and holidays are read in English, French, German,
        Spanish, Italian, Dutch and Portuguese.
      </p>
    </fieldset>
  );
}
