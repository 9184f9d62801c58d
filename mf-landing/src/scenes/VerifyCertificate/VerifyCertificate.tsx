import { useQuery } from '@tanstack/react-query';
import { CERTIFICATE_MSG, type CertificateCheck, ruForm } from '@portal/contracts';
import { ErrorBox, Muted, withQueries } from '@portal/ui';
import { ApiError, apiRequest, errorMessage } from '@portal/web-core';
import { AuthPanel, AuthScreen } from '../../components/AuthFrame';

const hoursText = (n: number) => `${n.toLocaleString('ru-RU')} ${ruForm(n, { one: 'час', few: 'часа', many: 'часов' })}`;
const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow', day: 'numeric', month: 'long', year: 'numeric' });

/** /verify/{number}: whether a certificate is valid, for whom and for what; nothing else. Public. */
function CertificateCheckPage({ number }: { number: string }) {
  const check = useQuery({
    queryKey: ['certificate-check', number],
    queryFn: ({ signal }) => apiRequest<CertificateCheck>(`/certificates/verify/${encodeURIComponent(number)}`, { signal }),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
  return (
    <AuthScreen>
      <AuthPanel>
        <h1>Проверка сертификата</h1>
        <Muted>№ {number}</Muted>
        {check.isPending ? (
          <Muted role="status">Проверяем...</Muted>
        ) : check.isError ? (
          <ErrorBox data-testid="certificate-invalid">
            {/* A malformed number (400) is as unknown to the visitor as a well-formed one (404): not found, and the format. */}
            {check.error instanceof ApiError && (check.error.status === 404 || check.error.status === 400) ? (
              <>
                {`${CERTIFICATE_MSG.notFound}: сертификат недействителен`}
                <br />
                <small>{CERTIFICATE_MSG.numberInvalid}, например C-2026-7KQ2M9XA</small>
              </>
            ) : (
              errorMessage(check.error, 'Не удалось проверить сертификат')
            )}
          </ErrorBox>
        ) : (
          <section data-testid="certificate-valid" aria-label="Сертификат действителен">
            <p>
              <strong>Сертификат действителен.</strong>
            </p>
            <p>
              Выдан: <strong>{check.data.fullName}</strong>
            </p>
            <p>
              {check.data.subject === 'program' ? (
                <>
                  Программа обучения: <strong>«{check.data.courseTitle}»</strong>
                </>
              ) : (
                <>
                  Курс: <strong>«{check.data.courseTitle}»</strong>, {hoursText(check.data.hours)}
                </>
              )}
            </p>
            <p>Пройден {dateText(check.data.completedAt)}</p>
          </section>
        )}
      </AuthPanel>
    </AuthScreen>
  );
}

export const VerifyCertificate = withQueries(CertificateCheckPage);
