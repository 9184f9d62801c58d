import { AUTH_LEGACY } from './auth';
import { CONTENT_LEGACY } from './content';
import { CRM_LEGACY } from './crm';
import type { LegacyKind } from './define';
import { PROGRESS_LEGACY } from './progress';
import { TRAIL_LEGACY } from './trail';

export type { LegacyKind } from './define';

/** Every free-text form the services wrote before the codes, tried in this order. */
export const LEGACY_KINDS: readonly LegacyKind[] = [
  ...AUTH_LEGACY,
  ...CRM_LEGACY,
  ...CONTENT_LEGACY,
  ...PROGRESS_LEGACY,
  ...TRAIL_LEGACY,
];
