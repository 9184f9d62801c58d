import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '@portal/contracts';
import { CardGrid, EmptyNote, PageHeader, PagedList, Row, Spread } from '@portal/ui';

/** The parts the CRM's two card lists (contacts, organizations) share. */

/** The head of the screen: its title with the count under it, and its actions at the other end. */
export function ListHeader({ title, count, children }: { title: string; count: ReactNode; children: ReactNode }) {
  return (
    <Head>
      <div>
        <h1>{title}</h1>
        {count}
      </div>
      <Row>{children}</Row>
    </Head>
  );
}

interface CardPagesProps<T> {
  /** The page's query (`keepPreviousData`: the cards on screen stay while another page loads). */
  query: UseQueryResult<Page<T>>;
  /** The title of a failed read. */
  failed: string;
  /** What the list says when nothing matches. */
  empty: string;
  /** The narrowest a card may be, in px. */
  min: number;
  onPage: (page: number) => void;
  /** One row's card (with its key). */
  children: (row: T) => ReactNode;
}

/** The list itself: loading, a failure with «Повторить», the empty note, or the cards (dimmed while another page loads) and the pager. */
export function CardPages<T>({ query, failed, empty, min, onPage, children }: CardPagesProps<T>) {
  return (
    <PagedList query={query} failed={failed} empty={<EmptyNote>{empty}</EmptyNote>} onPage={onPage}>
      {(rows, busy) => (
        <CardGrid $min={min} aria-busy={busy}>
          {rows.map((row) => children(row))}
        </CardGrid>
      )}
    </PagedList>
  );
}

/** A card's name and its badge, on one line: a long name wraps within its side. */
export const CardHead = styled(Spread).attrs({ $align: 'flex-start', $gap: 8 })`
  width: 100%;
  flex-wrap: nowrap;
  h2 {
    margin: 0;
    min-width: 0;
    font-size: 18px;
    overflow-wrap: anywhere;
  }
`;

const Head = styled(PageHeader)`
  align-items: flex-start;
  p {
    margin: 4px 0 0;
  }
`;
