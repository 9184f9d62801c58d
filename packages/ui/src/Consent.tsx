import { useId, useState, type ComponentPropsWithRef } from 'react';
import styled from 'styled-components';
import { CONSENT_DOCUMENT, CONSENT_MSG } from '@portal/contracts';
import { Button, Muted } from './components';
import { Dialog } from './Dialog';
import { CheckLabel, FieldError } from './Field';

const dateText = (iso: string) => new Date(iso).toLocaleDateString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

/** The text of the consent to the processing of personal data, as the version this build carries (the server refuses another). */
export function ConsentText() {
  return (
    <Text>
      {CONSENT_DOCUMENT.paragraphs.map((p) => (
        <p key={p.slice(0, 40)}>{p}</p>
      ))}
      <Muted>Редакция от {dateText(CONSENT_DOCUMENT.version)}</Muted>
    </Text>
  );
}

/**
 * The consent's own checkbox (never pre-ticked: the form starts it unticked), a button that opens
 * the text to read, and the message beneath while it is not ticked. Takes react-hook-form's register().
 */
export function ConsentCheck({ error, ...input }: Omit<ComponentPropsWithRef<'input'>, 'type'> & { error?: string }) {
  const [reading, setReading] = useState(false);
  const errorId = useId();
  return (
    <Wrap>
      <Line>
        <input
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <span>{CONSENT_MSG.checkbox}</span>
      </Line>
      <Button $variant="link" $size="sm" type="button" onClick={() => setReading(true)}>
        Прочитать текст согласия
      </Button>
      {error && <FieldError id={errorId}>{error}</FieldError>}
      {reading && (
        <Dialog title={CONSENT_DOCUMENT.title} onClose={() => setReading(false)} wide>
          <ConsentText />
          <Actions>
            <Button type="button" onClick={() => setReading(false)}>
              Закрыть
            </Button>
          </Actions>
        </Dialog>
      )}
    </Wrap>
  );
}

/** Used as the formatter for the person's own consent («Дано 25 ноября 2026 г.»). */
export const consentDateText = dateText;

const Text = styled.div`
  max-height: 45vh;
  overflow-y: auto;
  font-size: 14px;
  line-height: 1.5;
  p {
    margin: 0 0 10px;
  }
`;
const Wrap = styled.div`
  display: grid;
  gap: 4px;
  justify-items: start;
`;
// A long text beside the box: the box stays at the first line and keeps its size.
const Line = styled(CheckLabel)`
  align-items: flex-start;
  input {
    flex: none;
  }
`;
const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  margin-top: 12px;
`;
