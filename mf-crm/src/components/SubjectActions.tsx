import { useState } from 'react';
import styled from 'styled-components';
import { useMutation } from '@tanstack/react-query';
import type { SubjectRequest, User } from '@portal/contracts';
import { Button, ConfirmDialog, Dialog, Muted, Stack, useToast } from '@portal/ui';
import { useReadAgain } from '@portal/web-core/query';
import { anonymiseSubject, downloadAct, downloadSubjectExport, fileSubjectRequest, subjectKeys } from '../api/privacy';
import { userKeys } from '../api/users';

const ANONYMISE_WARNING =
  'Имя заменится обозначением «Удалённый пользователь №…», email, подразделение, должность и контакты будут удалены, все сеансы завершатся. Результаты обучения сохранятся без сведений о личности. Отменить это нельзя.';

/** The export's three files; each download is carried out anew by the gateway from every service. */
export function ExportDownloads({ request }: { request: SubjectRequest }) {
  const toast = useToast();
  const download = (format: 'json' | 'xlsx' | 'csv') =>
    downloadSubjectExport(request, format).catch((err: unknown) => toast.failed(err, 'Не удалось выгрузить данные'));
  return (
    <>
      <Button type="button" $variant="outline" $size="sm" onClick={() => void download('json')}>
        Скачать JSON
      </Button>
      <Button type="button" $variant="outline" $size="sm" onClick={() => void download('xlsx')}>
        Скачать XLSX
      </Button>
      <Button type="button" $variant="outline" $size="sm" onClick={() => void download('csv')}>
        Скачать CSV
      </Button>
    </>
  );
}

export function ActDownload({ request }: { request: SubjectRequest }) {
  const toast = useToast();
  return (
    <Button
      type="button"
      $variant="outline"
      $size="sm"
      onClick={() => void downloadAct(request).catch((err: unknown) => toast.failed(err, 'Не удалось скачать акт'))}
    >
      Скачать акт (PDF)
    </Button>
  );
}

interface ConfirmAnonymiseProps {
  user: Pick<User, 'fullName' | 'email'>;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** «Обезличить данные»: asks about this person, saying what cannot be undone. */
export function ConfirmAnonymise({ user, busy, onConfirm, onCancel }: ConfirmAnonymiseProps) {
  return (
    <ConfirmDialog
      title="Обезличить данные"
      message={`${user.fullName} (${user.email}). ${ANONYMISE_WARNING}`}
      confirmLabel="Обезличить"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

/** Anonymises the person a request names, after a confirmation that says what cannot be undone. */
export function useAnonymise(onDone?: (request: SubjectRequest) => void) {
  const refresh = useReadAgain();
  const toast = useToast();
  return useMutation({
    mutationFn: anonymiseSubject,
    onSuccess: async (done) => {
      toast.show(`Данные обезличены: ${done.user.fullName}`);
      onDone?.(done);
      await refresh(subjectKeys.all, userKeys.all);
    },
    onError: async (err) => {
      toast.failed(err, 'Не удалось обезличить данные');
      await refresh(subjectKeys.all);
    },
  });
}

/**
 * «Персональные данные» on a person's card (ADMIN): file an export and download it, or file and
 * carry out an anonymisation; both are kept in «Запросы субъектов ПДн».
 */
export function PersonalDataDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const refresh = useReadAgain();
  const toast = useToast();
  const [exported, setExported] = useState<SubjectRequest | null>(null);
  const [done, setDone] = useState<SubjectRequest | null>(null);
  const [asking, setAsking] = useState(false);
  const anonymise = useAnonymise(setDone);
  const file = useMutation({
    mutationFn: (kind: 'export' | 'anonymise') => fileSubjectRequest(user.id, kind),
    onSuccess: async (request) => {
      await refresh(subjectKeys.all);
      if (request.kind === 'export') setExported(request);
      else anonymise.mutate(request);
    },
    onError: (err) => toast.failed(err, 'Не удалось создать запрос'),
  });
  const busy = file.isPending || anonymise.isPending;

  return (
    <Dialog title={`Персональные данные: ${user.fullName}`} onClose={onClose} wide>
      {done ? (
        <>
          <p role="status">Данные обезличены. Теперь это «{done.user.fullName}». Акт сохранён вместе с запросом.</p>
          <Actions>
            <ActDownload request={done} />
          </Actions>
        </>
      ) : (
        <>
          <Section aria-labelledby="pd-export">
            <h3 id="pd-export">Выгрузка</h3>
            <Muted>
              Всё, что портал хранит о человеке: профиль, согласия, назначения, прохождение, ответы, сертификаты и записи журнала.
            </Muted>
            <Actions>
              {exported ? (
                <ExportDownloads request={exported} />
              ) : (
                <Button type="button" $size="sm" disabled={busy} onClick={() => file.mutate('export')}>
                  Сформировать выгрузку
                </Button>
              )}
            </Actions>
          </Section>
          <Section aria-labelledby="pd-anonymise">
            <h3 id="pd-anonymise">Обезличивание</h3>
            <Muted>{ANONYMISE_WARNING}</Muted>
            <Actions>
              <Button type="button" $variant="destructive" $size="sm" disabled={busy} onClick={() => setAsking(true)}>
                Обезличить…
              </Button>
            </Actions>
          </Section>
        </>
      )}
      {asking && (
        <ConfirmAnonymise
          user={user}
          busy={busy}
          onConfirm={() => {
            setAsking(false);
            file.mutate('anonymise');
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </Dialog>
  );
}

const Section = styled(Stack).attrs({ as: 'section', $gap: 6 })`
  margin-bottom: 16px;
  h3 {
    margin: 0;
    font-size: 16px;
  }
  p {
    margin: 0;
  }
`;
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;
