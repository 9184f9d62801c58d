import styled from 'styled-components';
import { Button } from '@portal/ui';
import { errorMessage } from '@portal/web-core';

/** A load failure shown inline in red with the spec's text, the server's reason, and a retry. */
export function LoadError({ text, error, onRetry }: { text: string; error: unknown; onRetry: () => void }) {
  const reason = errorMessage(error, '');
  return (
    <Box role="alert">
      <strong>{text}</strong>
      {reason && reason !== text && <span>{reason}</span>}
      <Button $variant="outline" $size="sm" onClick={onRetry}>
        Повторить
      </Button>
    </Box>
  );
}

const Box = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 16px;
  padding: 12px 16px;
  color: ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerBg};
  border: 1px solid ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radius};
  span {
    font-size: 14px;
  }
  button {
    margin-left: auto;
  }
`;
