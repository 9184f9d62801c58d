import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button, Card } from '@portal/ui';

/** A form on a card, its fields one under another (the candidate link's and the candidate's own). */
export const CardForm = styled(Card).attrs({ as: 'form' })`
  display: grid;
  gap: 12px;
  padding: 20px;
`;

/** The form's submit, at the start of its own line, saying what is going on while the form is sent. */
export function Submit({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <div>
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : children}
      </Button>
    </div>
  );
}
