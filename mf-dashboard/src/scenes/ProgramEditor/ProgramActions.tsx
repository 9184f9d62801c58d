import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Program } from '@portal/contracts';
import { Button, ConfirmDialog, Dialog, ErrorBox, Muted, Row, refusalOf } from '@portal/ui';
import { errorMessage, navigate, paths } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { archiveProgram, copyProgram, createProgramAssignment, programKeys, restoreProgram } from '../../api/programs';
import { ProgramAssignForm } from '../../components/programs/ProgramAssignForm';

interface ProgramActionsProps {
  program: Program;
  /** The form has changes not saved yet: archiving reloads the program, assigning sends the saved one. */
  dirty: boolean;
  onChanged: (program: Program) => void;
}

/** «Копировать», «В архив» / «Вернуть из архива», «Назначить» (then the assignment's report). */
export function ProgramActions({ program, dirty, onChanged }: ProgramActionsProps) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'archive' | 'assign' | null>(null);
  const archived = program.status === 'archived';

  const copy = useMutation({
    mutationFn: () => copyProgram(program.id),
    onSuccess: async (made) => {
      await readAgain(queryClient, programKeys.all);
      navigate(paths.programEditor(made.id));
    },
  });
  const archive = useMutation({
    mutationFn: () => (archived ? restoreProgram(program.id) : archiveProgram(program.id)),
    onSuccess: async (changed) => {
      setAsking(null);
      onChanged(changed);
      await readAgain(queryClient, programKeys.all);
    },
    // The question closes: the reason shows beside the buttons.
    onError: () => setAsking(null),
  });
  const assign = useMutation({
    mutationFn: createProgramAssignment,
    onSuccess: async (made) => {
      await readAgain(queryClient, programKeys.all);
      navigate(paths.programReport(made.id));
    },
  });
  const failed = copy.isError
    ? errorMessage(copy.error, 'Не удалось скопировать программу')
    : archive.isError
      ? errorMessage(archive.error, 'Не удалось изменить программу')
      : null;

  return (
    <div>
      <Row>
        <Button type="button" $variant="outline" disabled={copy.isPending} onClick={() => copy.mutate()}>
          Копировать
        </Button>
        {program.canEdit && (
          <Button type="button" $variant="outline" onClick={() => setAsking('archive')}>
            {archived ? 'Вернуть из архива' : 'В архив'}
          </Button>
        )}
        {!archived && (
          <Button type="button" onClick={() => setAsking('assign')}>
            Назначить
          </Button>
        )}
      </Row>
      {failed && <ErrorBox>{failed}</ErrorBox>}

      {asking === 'archive' && (
        <ConfirmDialog
          title={archived ? 'Вернуть программу из архива?' : 'Отправить программу в архив?'}
          message={
            (archived
              ? `Программу «${program.title}» снова можно будет изменять и назначать.`
              : `Программу «${program.title}» нельзя будет назначить, пока её не вернут из архива. Уже выданные назначения останутся.`) +
            (dirty ? ' Несохранённые изменения пропадут.' : '')
          }
          confirmLabel={archived ? 'Вернуть' : 'В архив'}
          busy={archive.isPending}
          onConfirm={() => archive.mutate()}
          onCancel={() => setAsking(null)}
        />
      )}

      {asking === 'assign' && (
        <Dialog title={`Назначить программу «${program.title}»`} onClose={() => setAsking(null)}>
          {dirty && <Muted>Назначается сохранённая программа: сначала сохраните изменения, если они нужны в назначении.</Muted>}
          <ProgramAssignForm
            programId={program.id}
            busy={assign.isPending}
            error={assign.isError ? refusalOf(assign.error, 'Не удалось назначить программу') : null}
            onSubmit={(input) => assign.mutate(input)}
          />
        </Dialog>
      )}
    </div>
  );
}
