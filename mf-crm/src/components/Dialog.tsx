import { useEffect, useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal on the native <dialog>: focus is trapped, Escape closes, the rest of the page is inert.
 * The content mounts only while open, so every opening starts from a fresh form.
 */
export function Dialog({ open, title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <Panel
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </Panel>
  );
}

const Panel = styled.dialog`
  width: min(520px, calc(100vw - 32px));
  padding: 24px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius};
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
  &::backdrop { background: rgba(8, 10, 16, 0.6); }
  h2 { margin: 0 0 16px; font-size: 20px; }
`;
