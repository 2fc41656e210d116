import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A button that shows a small panel (WAI-ARIA disclosure pattern): Escape and a click outside
 * close it, and so does activating a link inside it. Used for the user menu and visitor menus.
 */
export function DisclosureMenu({
  label,
  buttonClassName = 'menu-button',
  align = 'start',
  children,
}: {
  label: ReactNode;
  buttonClassName?: string;
  align?: 'start' | 'end';
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="disclosure" ref={root}>
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
      </button>
      <div
        id={panelId}
        className={`disclosure-panel disclosure-${align}`}
        hidden={!open}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('a, button')) setOpen(false);
        }}
      >
        {children}
      </div>
    </div>
  );
}
