/** Default ports of the portal's processes (ARCHITECTURE.md). Each can be overridden by its env variable. */
export const DEFAULT_PORTS = {
  gateway: 8080,
  auth: 4001,
  content: 4002,
  progress: 4003,
  crm: 4004,
  audit: 4005,
} as const;
export type ServiceName = 'auth' | 'content' | 'progress' | 'crm' | 'audit';
export const SERVICE_NAMES: readonly ServiceName[] = ['auth', 'content', 'progress', 'crm', 'audit'];
