import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Program } from '@portal/contracts';
import { useAuth } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { fetchProgram, programKeys } from '../../api/programs';
import { RecordPage } from '../../components/RecordPage';
import { ProgramForm } from './ProgramForm';

/** /programs/:id: a program's editor (ADMIN, CURATOR); read-only for one they may not change or in the archive. */
export function ProgramEditor({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const program = useQuery({
    queryKey: programKeys.one(id),
    queryFn: ({ signal }) => fetchProgram(id, signal),
    // The form holds the author's draft: a refetch on focus must not replace the program under it.
    refetchOnWindowFocus: false,
  });
  const replace = (next: Program) => {
    queryClient.setQueryData(programKeys.one(id), next);
    // The list shows its counts and status.
    void readAgain(queryClient, [...programKeys.all, 'list']);
  };
  const reload = async () => {
    await program.refetch();
  };

  return (
    <RecordPage query={program} failed="Не удалось загрузить программу">
      {/* A saved or reloaded program starts the form again from what the server holds. */}
      {(p) => (
        <ProgramForm
          key={`${p.id}:${p.version}:${p.status}`}
          program={p}
          onSaved={replace}
          onReload={reload}
          canManageCoAuthors={!!user && (user.role === 'ADMIN' || user.id === p.owner.id)}
        />
      )}
    </RecordPage>
  );
}
