import styled from 'styled-components';
import { ROLE_LABELS, type Role } from '@portal/contracts/roles';
import { Button, Card, Muted } from '@portal/ui';

export function AccessDenied({ role, required }: { role: Role; required: readonly Role[] }) {
  return (
    <Wrap>
      <Card>
        <h1>Доступ запрещён</h1>
        <p>У вас недостаточно прав для доступа к этой странице.</p>
        <Muted>Ваша роль: {ROLE_LABELS[role]}</Muted>
        <Muted>Требуемые роли: {required.map((r) => ROLE_LABELS[r]).join(', ')}</Muted>
        <Button onClick={() => window.history.back()}>Назад</Button>
      </Card>
    </Wrap>
  );
}

const Wrap = styled.main`
  max-width: 560px;
  margin: 80px auto;
  padding: 0 24px;
  text-align: center;
`;
