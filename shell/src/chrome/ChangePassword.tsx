import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { MSG } from '@portal/contracts';
import { Button, Dialog, ErrorBox, Muted, PasswordInput, newPasswordProblem } from '@portal/ui';
import { ApiError, errorMessage, useAuth } from '@portal/web-core';

type Field = 'currentPassword' | 'newPassword' | 'confirm';

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
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [problem, setProblem] = useState<{ field: Field | null; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: Field) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!values.currentPassword) return setProblem({ field: 'currentPassword', message: MSG.fillAllFields });
    const newProblem = newPasswordProblem(values.newPassword, values.confirm);
    if (newProblem)
      return setProblem({ field: newProblem.field === 'password' ? 'newPassword' : 'confirm', message: newProblem.message });
    setBusy(true);
    setProblem(null);
    try {
      setDone(await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword }));
    } catch (err) {
      const field =
        err instanceof ApiError && (err.field === 'currentPassword' || err.field === 'newPassword') ? err.field : null;
      setProblem({ field, message: errorMessage(err, 'Не удалось сменить пароль') });
    } finally {
      setBusy(false);
    }
  };

  if (done)
    return (
      <Form as="div">
        <Muted role="status">{done}</Muted>
        <Button type="button" onClick={onClose}>
          Готово
        </Button>
      </Form>
    );

  const fieldProps = (field: Field) => ({
    name: field,
    value: values[field],
    onValue: set(field),
    error: problem?.field === field ? problem.message : null,
  });

  return (
    <Form onSubmit={submit} noValidate>
      <PasswordInput label="Текущий пароль" current data-autofocus {...fieldProps('currentPassword')} />
      <PasswordInput label="Новый пароль" {...fieldProps('newPassword')} />
      <PasswordInput label="Повторите новый пароль" {...fieldProps('confirm')} />
      {problem && !problem.field && <ErrorBox>{problem.message}</ErrorBox>}
      <Muted>После смены пароля на остальных устройствах потребуется войти заново.</Muted>
      <Actions>
        <Button type="button" $variant="outline" onClick={onClose}>
          Отмена
        </Button>
        <Button type="submit" disabled={busy}>
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
