import { useState } from 'react';
import styled from 'styled-components';
import type { ExportFormat } from '@portal/contracts';
import { errorMessage } from '@portal/web-core';
import { Button, ErrorBox, Row } from './components';

/** The labels of the download buttons; «Экспорт CSV» is the spec's (results screen). */
export const EXPORT_LABELS: Record<ExportFormat, string> = { csv: 'Экспорт CSV', xlsx: 'Экспорт XLSX' };
export const EXPORT_FAILED = 'Не удалось выгрузить файл';

interface ExportButtonsProps {
  /** Downloads the list in a format, with the filters the screen shows. */
  onExport: (format: ExportFormat) => Promise<void>;
  /** What the error says before the server's reason. */
  failedText?: string;
}

/** «Экспорт CSV» and «Экспорт XLSX» of a list screen: one download at a time, a failure said in words. */
export function ExportButtons({ onExport, failedText = EXPORT_FAILED }: ExportButtonsProps) {
  const [pending, setPending] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (format: ExportFormat) => {
    setPending(format);
    setError(null);
    try {
      await onExport(format);
    } catch (err) {
      setError(`${failedText}: ${errorMessage(err)}`);
    } finally {
      setPending(null);
    }
  };
  return (
    <Wrap>
      <Row>
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button key={format} type="button" $variant="outline" onClick={() => void run(format)} disabled={pending !== null}>
            {EXPORT_LABELS[format]}
          </Button>
        ))}
      </Row>
      {error && <ErrorBox>{error}</ErrorBox>}
    </Wrap>
  );
}

const Wrap = styled.div`
  display: grid;
  gap: 8px;
  justify-items: end;
`;
