import { useQuery } from '@tanstack/react-query';
import type { Role } from '@portal/contracts';
import { apiRequest } from '@portal/web-core';

export interface PresetAccount {
  email: string;
  password: string;
  fullName: string;
  role: Role;
  description: string;
  guest: boolean;
}

/** Preset demo accounts come from the auth service, so switching them off there hides them here. */
export const usePresets = () =>
  useQuery({
    queryKey: ['auth', 'presets'],
    queryFn: async () => (await apiRequest<{ data: PresetAccount[] }>('/auth/presets')).data,
    staleTime: Infinity,
  });
