const digits = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/**
 * A numeric keypad for the PIN on a wall tablet (issue 14): 0–9, Clear and Delete. It types
 * into the PIN field's value; the field itself still takes a keyboard.
 */
export function PinKeypad({
  value,
  maxLength,
  disabled,
  onChange,
}: {
  value: string;
  maxLength: number;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const key = (label: string, name: string, next: string) => (
    <button
      key={name}
      type="button"
      className="kiosk-key"
      aria-label={name}
      disabled={disabled}
      onClick={() => onChange(next.slice(0, maxLength))}
    >
      {label}
    </button>
  );
  return (
    <div className="kiosk-keypad" role="group" aria-label="Keypad">
      {digits.map((digit) => key(digit, digit, value + digit))}
      {key('Clear', 'Clear', '')}
      {key('0', '0', `${value}0`)}
      {key('⌫', 'Delete last digit', value.slice(0, -1))}
    </div>
  );
}
