import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Card, Muted } from '@portal/ui';

export function EmptyState({ title, hint, action }: { title: string; hint: string; action?: ReactNode }) {
  return (
    <Box role="status">
      <h2>{title}</h2>
      <Muted>{hint}</Muted>
      {action}
    </Box>
  );
}

const Box = styled(Card)`
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
