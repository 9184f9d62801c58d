import styled from 'styled-components';
import { useQueryClient } from '@tanstack/react-query';
import { readAgain } from '@portal/web-core/query';
import { Button, ErrorBox } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { versionsKey } from '../../../api/versions';
import { VERSIONS_UI } from './texts';
import { isStale } from './useVersions';

/**
 * Why a publish, discard or restore was refused, in the server's words. When another author
 * published meanwhile (412) «Обновить» reads the draft's state and the history again.
 */
export function ActionError({ courseId, error, onRefreshed }: { courseId: string; error: unknown; onRefreshed: () => void }) {
  const queryClient = useQueryClient();
  return (
    <Box>
      <span>{typeof error === 'string' ? error : errorMessage(error)}</span>
      {isStale(error) && (
        <Button
          type="button"
          $variant="outline"
          $size="sm"
          onClick={() => {
            void readAgain(queryClient, versionsKey(courseId));
            onRefreshed();
          }}
        >
          {VERSIONS_UI.refresh}
        </Button>
      )}
    </Box>
  );
}

const Box = styled(ErrorBox)`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
  span {
    overflow-wrap: anywhere;
  }
`;
