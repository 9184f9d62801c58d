import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { createPortal } from 'react-dom';
import { errorMessage } from '@portal/web-core';
import { Button } from './components';

export type ToastTone = 'info' | 'success' | 'error';

interface ToastItem {
  id: number;
  message: string;
  tone: ToastTone;
}

export interface Toaster {
  /** Shows a short message for a few seconds (errors stay until closed or replaced). */
  show: (message: string, tone?: ToastTone) => void;
  /** «Ошибка: {message}» for a failed change, the reason read from what was thrown. */
  failed: (error: unknown, fallback?: string) => void;
}

const TOAST_MS = 5000;
const MAX_TOASTS = 3;

/** The text a failed change is reported with (spec: «Ошибка: {message}»). */
export function failureText(error: unknown, fallback = 'Не удалось выполнить действие'): string {
  return `Ошибка: ${errorMessage(error, fallback)}`;
}

const ToastContext = createContext<Toaster | null>(null);

/**
 * Messages that do not interrupt: announced by screen readers (a status, an alert for errors), stacked in a corner, closed by their ✕ or after a few seconds.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setItems((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((message: string, tone: ToastTone = 'info') => {
    const id = next.current++;
    setItems((list) => [...list.filter((t) => t.message !== message), { id, message, tone }].slice(-MAX_TOASTS));
  }, []);
  const toaster = useMemo<Toaster>(
    () => ({ show, failed: (error, fallback) => show(failureText(error, fallback), 'error') }),
    [show],
  );
  const notices = items.filter((t) => t.tone !== 'error');
  const errors = items.filter((t) => t.tone === 'error');
  return (
    <ToastContext.Provider value={toaster}>
      {children}
      {items.length > 0 &&
        // Rendered only while there is something to say, so a page's own alerts stay the only ones;
        // inside the open modal dialog, if any, since everything outside it is inert and covered.
        inTopDialog(
          <Stack>
            {notices.length > 0 && (
              <div role="status">
                {notices.map((t) => (
                  <ToastView key={t.id} item={t} onClose={dismiss} />
                ))}
              </div>
            )}
            {errors.length > 0 && (
              <div role="alert">
                {errors.map((t) => (
                  <ToastView key={t.id} item={t} onClose={dismiss} />
                ))}
              </div>
            )}
          </Stack>,
        )}
    </ToastContext.Provider>
  );
}

function ToastView({ item, onClose }: { item: ToastItem; onClose: (id: number) => void }) {
  useEffect(() => {
    if (item.tone === 'error') return;
    const timer = window.setTimeout(() => onClose(item.id), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [item, onClose]);
  return (
    <Item $tone={item.tone} data-testid="toast">
      <span>{item.message}</span>
      <Button type="button" $variant="ghost" $size="sm" aria-label="Закрыть уведомление" onClick={() => onClose(item.id)}>
        ✕
      </Button>
    </Item>
  );
}

function inTopDialog(node: ReactNode): ReactNode {
  let host: Element | undefined;
  try {
    host = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal')).pop();
  } catch {
    host = undefined; // a browser without :modal
  }
  return host ? createPortal(node, host) : node;
}

/** The toaster of the nearest ToastProvider (every micro-frontend root has one). */
export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast must be used within a ToastProvider');
  return toaster;
}

const Stack = styled.div`
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 1000;
  display: grid;
  gap: 8px;
  width: min(420px, calc(100vw - 32px));
  pointer-events: none;
  & > div {
    display: grid;
    gap: 8px;
  }
`;
const Item = styled.div<{ $tone: ToastTone }>`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  padding: 10px 8px 10px 14px;
  pointer-events: auto;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme, $tone }) => ($tone === 'error' ? theme.colors.danger : theme.colors.border)};
  background: ${({ theme, $tone }) => ($tone === 'error' ? theme.colors.dangerBg : theme.colors.surface)};
  color: ${({ theme, $tone }) => ($tone === 'error' ? theme.colors.danger : $tone === 'success' ? theme.colors.success : theme.colors.text)};
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.2);
  overflow-wrap: anywhere;
`;
