import { useState } from 'react';
import styled from 'styled-components';
import { useMutation } from '@tanstack/react-query';
import type { User } from '@portal/contracts';
import { Button, ErrorBox, Input, Muted, Stack } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { issuePasswordResetLink } from '../api/passwordReset';

/**
 * The administrator's «Ссылка для смены пароля»: issues a one-time link (24 hours) and shows it to
 * copy and hand over. The link is shown once: the server keeps only its hash.
 */
export function ResetLink({ user }: { user: User }) {
  const [copied, setCopied] = useState(false);
  const issue = useMutation({ mutationFn: () => issuePasswordResetLink(user.id) });
  const url = issue.data ? `${window.location.origin}${issue.data.path}` : '';

  const copy = async () => {
    await navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <Box aria-label="Сброс пароля">
      <h3>Сброс пароля</h3>
      {!issue.data ? (
        <>
          <Muted>Ссылка действует 24 часа и срабатывает один раз; все сеансы пользователя после смены пароля завершатся.</Muted>
          <Button type="button" $variant="outline" $size="sm" disabled={issue.isPending} onClick={() => issue.mutate()}>
            Создать ссылку для смены пароля
          </Button>
        </>
      ) : (
        <>
          <label htmlFor={`reset-link-${user.id}`}>Ссылка для {user.fullName}</label>
          <Row>
            <Input id={`reset-link-${user.id}`} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
            <Button type="button" $size="sm" onClick={() => void copy()}>
              {copied ? 'Скопировано' : 'Копировать'}
            </Button>
          </Row>
          <Muted>Действует до {new Date(issue.data.expiresAt).toLocaleString('ru-RU')}. Передайте её лично.</Muted>
        </>
      )}
      {issue.isError && <ErrorBox>{errorMessage(issue.error, 'Не удалось создать ссылку')}</ErrorBox>}
    </Box>
  );
}

const Box = styled(Stack).attrs({ as: 'section', $gap: 8 })`
  justify-items: start;
  margin-top: 20px;
  padding-top: 16px;
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  h3 {
    margin: 0;
    font-size: 15px;
  }
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const Row = styled.div`
  display: flex;
  width: 100%;
  gap: 8px;
`;
