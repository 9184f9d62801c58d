import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  IMPORT_MSG,
  IMPORT_OUTCOME_LABELS,
  ROLE_LABELS,
  STAFF_IMPORT_COLUMNS,
  STAFF_IMPORT_MAX_BYTES,
  type ImportCounts,
  type ImportOutcome,
  type ImportPreview,
  type ImportedPerson,
} from '@portal/contracts';
import {
  Badge,
  BulletList,
  Button,
  Card,
  Check,
  DataTable,
  ErrorBox,
  Muted,
  Page,
  Pager,
  ProgressBar,
  type BadgeTone,
} from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { readAgain } from '@portal/web-core/query';
import { downloadImportTemplate, previewImport, runImportBatch } from '../../api/staffImport';
import { userKeys } from '../../api/users';

const ROWS_PER_PAGE = 50;
const TONES: Record<ImportOutcome, BadgeTone> = { new: 'success', update: 'primary', same: 'muted', error: 'danger' };
const countsText = (c: ImportCounts) =>
  `Новых: ${c.new} · изменений: ${c.update} · без изменений: ${c.same} · с ошибками: ${c.error}`;

interface Outcome {
  counts: ImportCounts;
  created: ImportedPerson[];
}

/**
 * /crm/staff-import (ADMIN, CURATOR): a spreadsheet of staff — a preview of every row first
 * (nothing is written), then the import batch by batch with its progress, and the one-time
 * set-password links of the new people when they were not mailed.
 */
export function StaffImport() {
  const queryClient = useQueryClient();
  const [fileError, setFileError] = useState<string | null>(null);
  const [shown, setShown] = useState<ImportPreview | null>(null);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [page, setPage] = useState(1);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const preview = useMutation({
    mutationFn: previewImport,
    onMutate: () => {
      setShown(null);
      setOutcome(null);
      setProgress(null);
      setPage(1);
    },
    onSuccess: setShown,
  });

  const run = useMutation({
    mutationFn: async (current: ImportPreview) => {
      const valid = current.total - current.counts.error;
      const total: Outcome = { counts: { new: 0, update: 0, same: 0, error: current.counts.error }, created: [] };
      setProgress({ done: 0, total: valid });
      for (let from = 0; from < valid;) {
        const batch = await runImportBatch(current.id, from);
        for (const k of ['new', 'update', 'same'] as const) total.counts[k] += batch.counts[k];
        total.created.push(...batch.created);
        setProgress({ done: batch.done, total: batch.total });
        if (batch.finished) break;
        from = batch.done;
      }
      return total;
    },
    onSuccess: async (result) => {
      setOutcome(result);
      await readAgain(queryClient, userKeys.all);
    },
  });

  const choose = (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    if (!/\.(xlsx|csv)$/i.test(file.name)) return setFileError(IMPORT_MSG.fileKind);
    if (file.size > STAFF_IMPORT_MAX_BYTES) return setFileError(IMPORT_MSG.fileTooBig);
    preview.mutate(file);
  };

  const rows = useMemo(
    () => (shown ? (onlyErrors ? shown.rows.filter((r) => r.outcome === 'error') : shown.rows) : []),
    [shown, onlyErrors],
  );
  const pageRows = rows.slice((page - 1) * ROWS_PER_PAGE, page * ROWS_PER_PAGE);
  const toWrite = shown ? shown.counts.new + shown.counts.update : 0;
  const links = outcome?.created.filter((p) => p.link) ?? [];

  return (
    <Page data-mf="mf_crm">
      <h1>Импорт сотрудников</h1>
      <Muted>
        Файл XLSX или CSV (например, выгрузка из 1С:ЗУП) со столбцами: {STAFF_IMPORT_COLUMNS.join(', ')}. Сначала показывается,
        что будет сделано с каждой строкой; сотрудники с тем же email обновляются, а не дублируются.
      </Muted>
      <Toolbar>
        <Button type="button" $variant="outline" $size="sm" onClick={() => void downloadImportTemplate('xlsx')}>
          Шаблон XLSX
        </Button>
        <Button type="button" $variant="outline" $size="sm" onClick={() => void downloadImportTemplate('csv')}>
          Шаблон CSV
        </Button>
        <FileLabel>
          <span>Файл с сотрудниками</span>
          <input
            type="file"
            accept=".xlsx,.csv"
            disabled={preview.isPending || run.isPending}
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </FileLabel>
      </Toolbar>
      {fileError && <ErrorBox>{fileError}</ErrorBox>}
      {preview.isError && <ErrorBox>{errorMessage(preview.error)}</ErrorBox>}
      {preview.isPending && <Muted aria-busy="true">Проверяем файл...</Muted>}

      {shown && (
        <Section aria-labelledby="import-preview">
          <h2 id="import-preview">
            Предпросмотр: «{shown.fileName}», строк: {shown.total}
          </h2>
          <p role="status" data-testid="import-counts">
            {countsText(shown.counts)}
          </p>
          <Check
            label="Только строки с ошибками"
            checked={onlyErrors}
            onChange={(e) => {
              setOnlyErrors(e.target.checked);
              setPage(1);
            }}
          />
          <DataTable>
            <thead>
              <tr>
                <th scope="col">Строка</th>
                <th scope="col">ФИО</th>
                <th scope="col">Email</th>
                <th scope="col">Подразделение, должность</th>
                <th scope="col">Роль</th>
                <th scope="col">Результат</th>
              </tr>
            </thead>
            <tbody>
              {pageRows.map((r) => (
                <tr key={r.row} data-testid="import-row">
                  <td>{r.row}</td>
                  <td>{r.fullName}</td>
                  <td>{r.email}</td>
                  <td>{[r.department, r.position].filter(Boolean).join(', ')}</td>
                  <td>{r.role ? ROLE_LABELS[r.role] : ''}</td>
                  <td>
                    <Badge $tone={TONES[r.outcome]}>{IMPORT_OUTCOME_LABELS[r.outcome]}</Badge>
                    {r.reason && <Reason>{r.reason}</Reason>}
                    {r.note && <Note>{r.note}</Note>}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          <Pager of={{ page, total: rows.length, limit: ROWS_PER_PAGE, data: pageRows }} onPage={setPage} />
          {!outcome && (
            <Button type="button" disabled={!toWrite || run.isPending} onClick={() => run.mutate(shown)}>
              {toWrite ? `Импортировать (${toWrite})` : 'Нечего импортировать'}
            </Button>
          )}
        </Section>
      )}

      {progress && (
        <ProgressBar
          name="Импорт сотрудников"
          value={progress.total ? (progress.done / progress.total) * 100 : 100}
          valueText={`Обработано ${progress.done} из ${progress.total}`}
        />
      )}
      {run.isError && <ErrorBox>{errorMessage(run.error)}. Загрузите файл снова: уже записанные строки не задвоятся.</ErrorBox>}

      {outcome && (
        <Section aria-labelledby="import-result">
          <h2 id="import-result">Импорт завершён</h2>
          <p role="status" data-testid="import-result">
            {countsText(outcome.counts)}
          </p>
          {outcome.created.some((p) => p.mailed) && <Muted>Новым сотрудникам отправлены письма со ссылкой для входа.</Muted>}
          {links.length > 0 && (
            <>
              <Muted>Почта не настроена: передайте новым сотрудникам их одноразовые ссылки для установки пароля.</Muted>
              <Links aria-label="Ссылки для установки пароля">
                {links.map((p) => (
                  <li key={p.email}>
                    <strong>{p.fullName}</strong> · {p.email}
                    <code>{`${window.location.origin}${p.link}`}</code>
                  </li>
                ))}
              </Links>
            </>
          )}
        </Section>
      )}
    </Page>
  );
}

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  margin: 16px 0;
`;
/** The caption above the file picker when a phone has no room for both on one line; the picker never widens the page. */
const FileLabel = styled.label`
  display: inline-flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  max-width: 100%;
  font-size: 14px;
  input {
    min-width: 0;
    max-width: 100%;
  }
`;
const Section = styled(Card).attrs({ as: 'section' })`
  display: grid;
  gap: 12px;
  padding: 20px;
  margin: 16px 0;
  h2 {
    margin: 0;
    font-size: 18px;
  }
  p {
    margin: 0;
  }
  & > button {
    justify-self: start;
  }
`;
const Reason = styled.span`
  display: block;
  margin-top: 4px;
  font-size: 13px;
  color: ${({ theme }) => theme.colors.danger};
`;
const Note = styled(Reason)`
  color: ${({ theme }) => theme.colors.muted};
`;
const Links = styled(BulletList).attrs({ $gap: 6 })`
  font-size: 14px;
  code {
    display: block;
    overflow-wrap: anywhere;
  }
`;
