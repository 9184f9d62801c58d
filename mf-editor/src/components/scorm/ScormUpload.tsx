import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { SCORM_LIMITS, SCORM_MSG, formatMessage, type ScormPackageSummary } from '@portal/contracts';
import { Button, Label, ProgressBar } from '@portal/ui';
import { errorMessage } from '@portal/web-core';
import { useBackend } from '../../backend/backend';

export const SCORM_UPLOAD_MSG = {
  hint: `Архив .zip с файлом imsmanifest.xml в корне, до ${SCORM_LIMITS.maxZipBytes / (1024 * 1024)} МБ. SCORM 1.2 и SCORM 2004`,
  cancel: 'Отменить загрузку',
  cancelled: 'Загрузка отменена',
  failed: 'Не удалось загрузить SCORM-пакет',
  notZip: 'Выберите файл .zip: SCORM-пакет загружается архивом',
  demo: 'В демонстрационном редакторе SCORM-пакеты не загружаются',
} as const;

/** Said before a byte is sent: not a zip by its name, or larger than the server takes. */
export function scormFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.zip$/i.test(file.name)) return SCORM_UPLOAD_MSG.notZip;
  if (file.size > SCORM_LIMITS.maxZipBytes)
    return formatMessage(SCORM_MSG.tooBig, { max: SCORM_LIMITS.maxZipBytes / (1024 * 1024) });
  return null;
}

interface ScormUploadProps {
  label: string;
  courseId: string;
  mode: 'lesson' | 'course';
  onUploaded: (pkg: ScormPackageSummary) => void;
  /** The file picker takes focus (a block just added asks for its package at once). */
  autoFocus?: boolean;
}

/**
 * A package chosen and sent with its progress and a cancel; while the server checks it «Проверяем
 * пакет…»; a refusal (the server's Russian 400 or 413) stays beside the field.
 */
export function ScormUpload({ label, courseId, mode, onUploaded, autoFocus }: ScormUploadProps) {
  const backend = useBackend();
  const [sent, setSent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  const hintId = useId();
  // Leaving the field cancels what is still going out.
  useEffect(() => () => running.current?.abort(), []);

  if (!backend.scorm) return <Hint role="note">{SCORM_UPLOAD_MSG.demo}</Hint>;
  const scorm = backend.scorm;
  const busy = sent !== null;

  const upload = async (file: File | undefined) => {
    if (!file || busy) return;
    const refused = scormFileProblem(file);
    setProblem(refused);
    if (refused) return;
    const controller = new AbortController();
    running.current = controller;
    setSent(0);
    try {
      onUploaded(await scorm.upload(file, courseId, mode, { onProgress: setSent, signal: controller.signal }));
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        if (running.current === controller) setProblem(SCORM_UPLOAD_MSG.cancelled);
        return;
      }
      setProblem(errorMessage(err, SCORM_UPLOAD_MSG.failed));
    } finally {
      if (running.current === controller) {
        running.current = null;
        setSent(null);
      }
    }
  };

  const percent = Math.round(sent ?? 0);
  return (
    <Group>
      <Label>
        {label}
        <FileInput
          type="file"
          accept=".zip,application/zip,application/x-zip-compressed"
          disabled={busy}
          autoFocus={autoFocus}
          aria-describedby={hintId}
          onChange={(e) => {
            void upload(e.currentTarget.files?.[0]);
            e.currentTarget.value = '';
          }}
        />
      </Label>
      {busy ? (
        <Progress>
          <ProgressBar
            name={`${label}: отправлено`}
            value={percent}
            valueText={percent < 100 ? formatMessage(SCORM_MSG.uploading, { percent }) : SCORM_MSG.processing}
          />
          <span role="status">{percent < 100 ? formatMessage(SCORM_MSG.uploading, { percent }) : SCORM_MSG.processing}</span>
          <Button type="button" $variant="outline" $size="sm" onClick={() => running.current?.abort()}>
            {SCORM_UPLOAD_MSG.cancel}
          </Button>
        </Progress>
      ) : (
        <Hint id={hintId} role={problem ? 'alert' : undefined} $problem={!!problem}>
          {problem ?? SCORM_UPLOAD_MSG.hint}
        </Hint>
      )}
    </Group>
  );
}

const Group = styled.div`
  display: grid;
  gap: 8px;
`;
const Progress = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 6px;
  font-size: 13px;
  justify-items: start;
`;
const FileInput = styled.input`
  font: inherit;
  font-size: 13px;
`;
const Hint = styled.span<{ $problem?: boolean }>`
  font-size: 12px;
  overflow-wrap: anywhere;
  color: ${({ theme, $problem }) => ($problem ? theme.colors.danger : theme.colors.muted)};
`;
