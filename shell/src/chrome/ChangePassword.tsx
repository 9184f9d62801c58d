import { useState } from 'react';
import styled from 'styled-components';
import { Button, Dialog, ErrorBox, Muted, PasswordInput, changePasswordForm, useZodForm } from '@portal/ui';
import { ApiError, errorMessage, useAuth } from '@portal/web-core';

/**
 * «Сменить пароль»: the current password and a new one (twice). The server's Russian message is
 * shown under the field it names; on success the other devices are signed out and this one stays.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Смена пароля" onClose={onClose}>
      <ChangePasswordForm onClose={onClose} />
    </Dialog>
  );
}

function ChangePasswordForm({ onClose }: { onClose: () => void }) {
  const { changePassword } = useAuth();
  const form = useZodForm(changePasswordForm, { currentPassword: '', newPassword: '', confirm: '' });
  const { errors, isSubmitting } = form.formState;
  const [done, setDone] = useState<string | null>(null);

  const submit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      setDone(await changePassword({ currentPassword, newPassword }));
    } catch (err) {
      const message = errorMessage(err, 'Не удалось сменить пароль');
      const field = err instanceof ApiError ? err.field : undefined;
      if (field === 'currentPassword' || field === 'newPassword') form.setError(field, { message }, { shouldFocus: true });
      else form.setError('root.server', { message });
    }
  });

  if (done)
    return (
      <Form as="div">
        <Muted role="status">{done}</Muted>
        <Button type="button" onClick={onClose}>
          Готово
        </Button>
      </Form>
    );

  return (
    <Form onSubmit={submit} noValidate>
      <PasswordInput
        label="Текущий пароль"
        current
        data-autofocus
        error={errors.currentPassword?.message}
        {...form.register('currentPassword')}
      />
      <PasswordInput label="Новый пароль" error={errors.newPassword?.message} {...form.register('newPassword')} />
      <PasswordInput label="Повторите новый пароль" error={errors.confirm?.message} {...form.register('confirm')} />
      {errors.root?.server && <ErrorBox>{errors.root.server.message}</ErrorBox>}
      <Muted>После смены пароля на остальных устройствах потребуется войти заново.</Muted>
      <Actions>
        <Button type="button" $variant="outline" onClick={onClose}>
          Отмена
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          Сменить пароль
        </Button>
      </Actions>
    </Form>
  );
}

const Form = styled.form`
  display: grid;
  gap: 12px;
  p {
    margin: 0;
    font-size: 13px;
  }
`;
const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
`;
