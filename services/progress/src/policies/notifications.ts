import { ROLES } from '@portal/contracts';
import { definePolicy } from '@portal/service-kit';

/** Everyone signed in reads and marks their own notifications; nobody is refused for their role, and nobody reaches anyone else's. */
export const ownNotifications = definePolicy('ownNotifications', ROLES);
