import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorBox, Page } from '@portal/ui';
import { errorMessage } from '@portal/web-core';

interface RecordPageProps<T> {
  /** The read the whole screen stands on. */
  query: UseQueryResult<T>;
  /** Said when the read failed without a reason of its own. */
  failed: string;
  children: (data: T) => ReactNode;
}

/** A dashboard screen over one read: «Загрузка...» while it is on its way, the reason when it failed, else the screen. */
export function RecordPage<T>({ query, failed, children }: RecordPageProps<T>) {
  return (
    <Page data-mf="mf_dashboard">
      {query.isPending ? (
        'Загрузка...'
      ) : query.isError ? (
        <ErrorBox>{errorMessage(query.error, failed)}</ErrorBox>
      ) : (
        children(query.data)
      )}
    </Page>
  );
}
