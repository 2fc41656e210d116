import { Link } from 'react-router';

/** A grid of links to the places a person may go (the homes of both views). */
export function ShortcutGrid({ items }: { items: ReadonlyArray<{ label: string; path: string }> }) {
  return (
    <ul className="shortcut-grid">
      {items.map((item) => (
        <li key={item.path}>
          <Link to={item.path} className="shortcut">
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
