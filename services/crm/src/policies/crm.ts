import { CRM_ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/**
 * Who may read and change organizations and contacts: the staff roles (ADMIN, CURATOR) and MANAGER,
 * whose preset account "manages users and organizations". Every CRM record is shared by them all.
 */
export const manageCrm = definePolicy('manageCrm', CRM_ROLES);
