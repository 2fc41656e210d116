import * as Dialog from '@radix-ui/react-dialog';
import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

/**
 * Where focus lands when a dialog opens (WCAG 2.4.3, issue 14): an element marked
 * `data-autofocus`, else the first field, else the first control of the body — never the
 * header's Close button while there is something else to do.
 */
const FIRST_FIELD =
  'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';
const FIRST_CONTROL = `${FIRST_FIELD}, button:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])`;

function initialFocusOf(content: HTMLElement): HTMLElement | null {
  const body = content.querySelector<HTMLElement>('.modal-body');
  if (!body) return null;
  return (
    // A control marked but disabled cannot take focus: focus would stay behind the dialog.
    body.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ??
    body.querySelector<HTMLElement>(FIRST_FIELD) ??
    body.querySelector<HTMLElement>(FIRST_CONTROL)
  );
}

/**
 * The one modal frame (Radix: focus trap, Escape, labelled by its title). Focus goes to the
 * dialog's first field when it opens and back to the control that opened it when it closes —
 * Radix does the latter only for its own Trigger, and our dialogs are opened by state.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** Kept for callers written before every dialog opened on its first field. */
  focusFirstField?: boolean;
  /**
   * Where focus goes on close when the control that opened the dialog is gone (its row was
   * removed). Otherwise focus goes back to that control.
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const opener = useRef<HTMLElement | null>(null);
  // Layout effects run before Radix moves focus into the dialog: the opener still has it.
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        {/* Without a description Radix wants aria-describedby explicitly unset. */}
        <Dialog.Content
          className="modal"
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            const target = initialFocusOf(event.currentTarget as HTMLElement);
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          onCloseAutoFocus={(event) => {
            const back = opener.current?.isConnected ? opener.current : returnFocusTo?.current;
            if (!back?.isConnected) return;
            event.preventDefault();
            back.focus();
          }}
        >
          <div className="modal-header">
            <Dialog.Title className="modal-title">{title}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              ×
            </Dialog.Close>
          </div>
          {description && (
            <Dialog.Description className="modal-description">{description}</Dialog.Description>
          )}
          <div className="modal-body">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
