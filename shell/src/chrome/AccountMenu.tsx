import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button } from '@portal/ui';
import { PHONE } from './layout';

interface Props {
  /** Who is signed in, as the header shows it. */
  label: string;
  /** The person's initials, which a phone's header shows instead of the label. */
  initials: string;
  onChangePassword: () => void;
  onSignOutEverywhere: () => void;
  onAbout: () => void;
  onConsent: () => void;
  /** Signs out: a phone's header has no room for «Выйти» beside the menu, so the menu offers it there. */
  onSignOut: () => void;
  /** Called as the menu opens (the header fetches its dialogs then). */
  onOpen?: () => void;
}

/**
 * The person's name in the header opens the account's less frequent actions (a disclosure: the
 * header has no room for them beside the navigation). Escape or a click elsewhere closes it. A
 * phone's header has no room for the name either: it shows the initials, and the open menu names
 * the person in full, and takes «Выйти» in from the header (see docs/decisions/phone-header.md).
 */
export function AccountMenu({
  label,
  initials,
  onChangePassword,
  onSignOutEverywhere,
  onAbout,
  onConsent,
  onSignOut,
  onOpen,
}: Props) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <Root ref={root}>
      <Button
        $variant="ghost"
        $size="sm"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        <Name>{label}</Name>
        <Initials aria-hidden="true">{initials}</Initials>
        <span aria-hidden="true">▾</span>
      </Button>
      {open && (
        <Panel id={panelId}>
          <PanelName>{label}</PanelName>
          <Button $variant="ghost" $size="sm" onClick={choose(onChangePassword)}>
            Сменить пароль
          </Button>
          <Button $variant="ghost" $size="sm" onClick={choose(onSignOutEverywhere)}>
            Выйти на всех устройствах
          </Button>
          <Button $variant="ghost" $size="sm" onClick={choose(onConsent)}>
            Согласие на обработку данных
          </Button>
          <Button $variant="ghost" $size="sm" onClick={choose(onAbout)}>
            О системе
          </Button>
          <PhoneOnly>
            <Button $variant="ghost" $size="sm" onClick={choose(onSignOut)}>
              Выйти
            </Button>
          </PhoneOnly>
        </Panel>
      )}
    </Root>
  );
}

const Root = styled.div`
  position: relative;
  min-width: 0;
  & > button {
    max-width: 100%;
  }
`;
/** A long name beside the navigation is cut at its end, with «…», rather than widening the page. */
const Name = styled.span`
  min-width: 0;
  overflow: hidden;
  text-overflow: ellipsis;
  ${PHONE} {
    display: none;
  }
`;
const Initials = styled.span`
  display: none;
  ${PHONE} {
    display: inline-grid;
    place-items: center;
    width: 28px;
    height: 28px;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.surfaceAlt};
    color: ${({ theme }) => theme.colors.text};
    font-size: 12px;
  }
`;
/** «Выйти» in the menu: on a wide screen it stands in the header itself. */
const PhoneOnly = styled.div`
  display: none;
  ${PHONE} {
    display: flex;
    flex-direction: column;
    border-top: 1px solid ${({ theme }) => theme.colors.border};
    margin-top: 4px;
    padding-top: 4px;
  }
`;
const PanelName = styled.p`
  display: none;
  ${PHONE} {
    display: block;
    margin: 0;
    padding: 6px 12px 8px;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.text};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
`;
const Panel = styled.div`
  position: absolute;
  right: 0;
  top: calc(100% + 6px);
  z-index: 20;
  display: flex;
  flex-direction: column;
  align-items: stretch;
  min-width: 240px;
  padding: 6px;
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: 8px;
  box-shadow: 0 10px 30px rgba(0, 0, 0, 0.25);
  button {
    justify-content: flex-start;
  }
`;
