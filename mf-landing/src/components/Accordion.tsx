import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { revealStyles, useReveal } from './reveal';

export interface AccordionItem {
  title: string;
  content: ReactNode;
}

/**
 * An accordion after the WAI-ARIA pattern: each header is a button inside a heading with
 * aria-expanded and aria-controls, each panel a region labelled by its button. Enter and Space
 * toggle (native buttons); ↑ ↓ Home End move between headers. Panels open independently, so
 * reading one answer never closes another.
 */
export function Accordion({ items }: { items: AccordionItem[] }) {
  const baseId = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const headers = useRef<Array<HTMLButtonElement | null>>([]);

  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  const moveFocus = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const target = { ArrowDown: index === last ? 0 : index + 1, ArrowUp: index === 0 ? last : index - 1, Home: 0, End: last }[
      event.key
    ];
    if (target === undefined) return;
    event.preventDefault();
    headers.current[target]?.focus();
  };

  return (
    <List>
      {items.map((item, index) => (
        <Item
          key={item.title}
          order={index}
          title={item.title}
          headerId={`${baseId}-h${index}`}
          panelId={`${baseId}-p${index}`}
          expanded={open.has(index)}
          onToggle={() => toggle(index)}
          onKeyDown={(event) => moveFocus(event, index)}
          headerRef={(el) => {
            headers.current[index] = el;
          }}
        >
          {item.content}
        </Item>
      ))}
    </List>
  );
}

interface ItemProps {
  order: number;
  title: string;
  headerId: string;
  panelId: string;
  expanded: boolean;
  onToggle: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  headerRef: (el: HTMLButtonElement | null) => void;
  children: ReactNode;
}

function Item({ order, title, headerId, panelId, expanded, onToggle, onKeyDown, headerRef, children }: ItemProps) {
  const [ref, revealed] = useReveal<HTMLDivElement>();
  return (
    <Card ref={ref} data-revealed={revealed} $order={order} data-testid="reveal-card">
      <Heading>
        <Header
          ref={headerRef}
          id={headerId}
          type="button"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
          onKeyDown={onKeyDown}
        >
          <span>{title}</span>
          <Chevron aria-hidden="true" viewBox="0 0 24 24" $open={expanded}>
            <path d="M6 9l6 6 6-6" />
          </Chevron>
        </Header>
      </Heading>
      <Panel id={panelId} role="region" aria-labelledby={headerId} hidden={!expanded}>
        {children}
      </Panel>
    </Card>
  );
}

const List = styled.div`
  display: grid;
  gap: 12px;
  max-width: 820px;
  margin: 0 auto;
`;
const Card = styled.div<{ $order: number }>`
  ${revealStyles}
  border-radius: ${({ theme }) => theme.radius};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
`;
const Heading = styled.h3`
  margin: 0;
  font-size: 17px;
`;
const Header = styled.button`
  display: flex;
  width: 100%;
  align-items: center;
  justify-content: space-between;
  gap: 16px;
  padding: 18px 20px;
  border: 0;
  background: none;
  cursor: pointer;
  text-align: left;
  font: inherit;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radius};
  &:hover {
    color: ${({ theme }) => theme.colors.primary};
  }
`;
const Chevron = styled.svg<{ $open: boolean }>`
  flex: none;
  width: 20px;
  height: 20px;
  fill: none;
  stroke: currentColor;
  stroke-width: 2;
  stroke-linecap: round;
  stroke-linejoin: round;
  transform: rotate(${({ $open }) => ($open ? 180 : 0)}deg);
  transition: transform 200ms ease;
`;
const Panel = styled.div`
  padding: 0 20px 18px;
  color: ${({ theme }) => theme.colors.muted};
  p {
    margin: 0;
  }
`;
