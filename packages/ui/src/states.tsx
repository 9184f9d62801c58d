import { Component, Suspense, type ReactNode } from 'react';
import styled from 'styled-components';
import { errorMessage } from '@portal/web-core';
import { Button, Card, ErrorBox, Muted, Page } from './components';

/** Nothing to show yet: a heading, what to do about it, and maybe the action that does it. */
export function EmptyState({ title, hint, action }: { title: string; hint?: ReactNode; action?: ReactNode }) {
  return (
    <EmptyBox role="status">
      <h2>{title}</h2>
      {hint && <Muted>{hint}</Muted>}
      {action}
    </EmptyBox>
  );
}

/** A list or a part of a page that could not be read: what failed, the reason and «Повторить». */
export function LoadError({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <ErrorRow>
      <span>
        {title && `${title}: `}
        {errorMessage(error)}
      </span>
      {onRetry && (
        <Button type="button" $variant="outline" $size="sm" onClick={onRetry}>
          Повторить
        </Button>
      )}
    </ErrorRow>
  );
}

/** A page (or a dialog's body) still on its way. */
export function Loading({ label = 'Загрузка...' }: { label?: string }) {
  return (
    <Muted role="status" aria-live="polite">
      {label}
    </Muted>
  );
}

/**
 * A lazily loaded part of a screen (the header's bell, the editor's text editor, a quiz): `fallback`
 * while its files come; if they could not come (a dropped connection, a deploy that removed them),
 * `failed` (by default the fallback) in its place, instead of the whole root failing with it.
 */
export function LazyPart({ fallback, failed, children }: { fallback: ReactNode; failed?: ReactNode; children: ReactNode }) {
  return (
    <FailedPart failed={failed === undefined ? fallback : failed}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </FailedPart>
  );
}

/** What a lazy part says when its files could not come: the page has to be loaded again. */
export function PartFailed({ what }: { what: string }) {
  return <ErrorBox>{`Не удалось загрузить ${what}. Обновите страницу.`}</ErrorBox>;
}

class FailedPart extends Component<{ failed: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.failed : this.props.children;
  }
}

/** A whole page still on its way (a lazy scene's fallback). */
export function PageLoading() {
  return (
    <Page>
      <Loading />
    </Page>
  );
}

/** What a whole page says when the thing it shows does not exist (or is not this person's to see). */
export function NotFoundState({
  title = 'Страница не найдена',
  hint,
  action,
}: {
  title?: string;
  hint?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <StateCard>
      <h1>{title}</h1>
      {hint && <Muted>{hint}</Muted>}
      {action}
    </StateCard>
  );
}

/** What a whole page says when it could not be read: the reason, «Повторить» and maybe a way out. */
export function ErrorState({
  error,
  onRetry,
  title = 'Не удалось загрузить страницу',
  action,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  /** Beside «Повторить»: where to go instead (back to a list, say). */
  action?: ReactNode;
}) {
  return (
    <StateCard role="alert">
      <h1>{title}</h1>
      <Muted>{errorMessage(error)}</Muted>
      {(onRetry || action) && (
        <StateActions>
          {onRetry && (
            <Button type="button" $variant="outline" onClick={onRetry}>
              Повторить
            </Button>
          )}
          {action}
        </StateActions>
      )}
    </StateCard>
  );
}

const EmptyBox = styled(Card)`
  display: grid;
  justify-items: center;
  gap: 8px;
  padding: 48px 24px;
  text-align: center;
  h2 {
    margin: 0;
    font-size: 20px;
  }
  p {
    margin: 0 0 8px;
  }
`;
const ErrorRow = styled(ErrorBox)`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
`;
const StateActions = styled.div`
  display: flex;
  gap: 8px;
  flex-wrap: wrap;
`;
const StateCard = styled(Card)`
  display: grid;
  justify-items: start;
  gap: 8px;
  max-width: 640px;
  margin: 48px auto;
  h1 {
    margin: 0;
    font-size: 24px;
  }
  p {
    margin: 0 0 8px;
  }
`;
