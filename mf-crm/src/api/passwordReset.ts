import type { PasswordResetLink } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

/** An administrator's one-time link for a person to set a new password (24 hours, usable once). */
export const issuePasswordResetLink = (userId: string) =>
  apiRequest<PasswordResetLink>(`/users/${encodeURIComponent(userId)}/password-reset`, { method: 'POST' });
