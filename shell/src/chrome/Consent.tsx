import { useState } from 'react';
import styled from 'styled-components';
import { CONSENT_DOCUMENT, CONSENT_MSG, type ConsentState } from '@portal/contracts';
import { Button, Check, ConfirmDialog, ConsentText, Dialog, ErrorBox, consentDateText } from '@portal/ui';
import { apiRequest, errorMessage } from '@portal/web-core';

const dateText = consentDateText;

/** Its own checkbox, never pre-ticked, and «Принять»: the consent to the version shown. */
function GiveConsent({ onAccepted }: { onAccepted: () => void }) {
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await apiRequest('/consent', { method: 'POST', body: { version: CONSENT_DOCUMENT.version } });
      onAccepted();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Check label={CONSENT_MSG.checkbox} checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
      {error && <ErrorBox>{error}</ErrorBox>}
      <Actions>
        <Button type="button" disabled={!agreed || busy} onClick={() => void accept()}>
          Принять
        </Button>
      </Actions>
    </>
  );
}

/**
 * Asked before anything else when the server says there is no consent in force to the current
 * version (an account from before consent existed, a new version of the text, a withdrawn one):
 * it cannot be dismissed; the only other way out is signing out.
 */
export function ConsentRequiredDialog({ onAccepted, onSignOut }: { onAccepted: () => void; onSignOut: () => void }) {
  return (
    <Dialog title={CONSENT_DOCUMENT.title} onClose={() => undefined} dismissible={false} wide>
      <p>Чтобы продолжить работу на портале, прочитайте текст и подтвердите согласие.</p>
      <ConsentText />
      <GiveConsent onAccepted={onAccepted} />
      <Actions>
        <Button $variant="outline" type="button" onClick={onSignOut}>
          Выйти
        </Button>
      </Actions>
    </Dialog>
  );
}

/** «Согласие на обработку данных» in the account menu: what was agreed to, and its withdrawal. */
export function ConsentDialog({
  state,
  onClose,
  onChanged,
}: {
  state: ConsentState | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const consent = state?.consent;
  const inForce = !!consent && !consent.withdrawnAt;
  const withdraw = async () => {
    setAsking(false);
    try {
      const answer = await apiRequest<{ message: string }>('/consent/withdraw', { method: 'POST' });
      setMessage(answer.message);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Dialog title="Согласие на обработку данных" onClose={message ? () => (onClose(), onChanged()) : onClose} wide>
      {/* After a withdrawal the answer's message replaces the state read before it. */}
      <p role="status">
        {message ??
          (inForce ? `Дано ${dateText(consent.acceptedAt)} (редакция от ${dateText(consent.version)}).` : CONSENT_MSG.notGiven)}
      </p>
      <ConsentText />
      {error && <ErrorBox>{error}</ErrorBox>}
      {!inForce && !message && state && <GiveConsent onAccepted={onChanged} />}
      {inForce && !message && (
        <Actions>
          <Button $variant="destructive" type="button" onClick={() => setAsking(true)}>
            Отозвать согласие
          </Button>
        </Actions>
      )}
      {asking && (
        <ConfirmDialog
          title="Отозвать согласие"
          message="Администратор получит запрос и обезличит ваши данные в течение 30 дней. Пока согласия нет, портал будет просить его при каждом входе."
          confirmLabel="Отозвать"
          onConfirm={() => void withdraw()}
          onCancel={() => setAsking(false)}
        />
      )}
    </Dialog>
  );
}

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
  margin-top: 12px;
`;
