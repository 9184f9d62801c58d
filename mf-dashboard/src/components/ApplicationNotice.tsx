import styled from 'styled-components';
import { useQuery } from '@tanstack/react-query';
import { ROLE_LABELS, type User } from '@portal/contracts';
import { fetchProfile, profileKey } from '../api/dashboard';

/**
 * Says where the person's application for a staff role stands while it is undecided or after it was
 * declined. Approval needs no notice: the staff navigation appears (the role is re-read on reload).
 */
export function ApplicationNotice({ user }: { user: User }) {
  const profile = useQuery({ queryKey: profileKey(user.id), queryFn: ({ signal }) => fetchProfile(signal), staleTime: 0 });
  const application = profile.data?.application;
  if (!application || application.status === 'approved') return null;
  const role = ROLE_LABELS[application.role];
  return (
    <Notice role="status" data-testid="application-notice" $declined={application.status === 'declined'}>
      {application.status === 'pending'
        ? `Заявка на роль «${role}» ожидает подтверждения администратора. Пока её рассматривают, вам доступно обучение.`
        : `Заявка на роль «${role}» отклонена администратором.`}
    </Notice>
  );
}

const Notice = styled.p<{ $declined: boolean }>`
  margin: 0 0 16px;
  padding: 12px 16px;
  border-radius: ${({ theme }) => theme.radius};
  border: 1px solid ${({ theme, $declined }) => ($declined ? theme.colors.danger : theme.colors.warning)};
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.surfaceAlt};
`;
