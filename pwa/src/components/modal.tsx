import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode, type RefObject } from 'react';

const FIRST_FIELD =
  'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/** The one modal frame (Radix: focus trap, Escape, labelled by its title). */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  focusFirstField = false,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** Open with focus on the first form field rather than the Close button (WCAG 2.4.3). */
  focusFirstField?: boolean;
  /**
   * Where focus goes on close when the control that opened the dialog is gone (its row was
   * removed). Otherwise focus goes back to that control.
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const opener = useRef<Element | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        {/* Without a description Radix wants aria-describedby explicitly unset. */}
        <Dialog.Content
          className="modal"
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            opener.current = document.activeElement;
            if (!focusFirstField) return;
            const field = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(
              FIRST_FIELD,
            );
            if (!field) return;
            event.preventDefault();
            field.focus();
          }}
          onCloseAutoFocus={(event) => {
            // Radix gives focus back only to a Dialog.Trigger, which these dialogs opened by
            // state have not: back to the control that opened it, or, once that is gone,
            // to `returnFocusTo`.
            const target = opener.current?.isConnected ? opener.current : returnFocusTo?.current;
            if (!(target instanceof HTMLElement) || !target.isConnected) return;
            event.preventDefault();
            target.focus();
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
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
