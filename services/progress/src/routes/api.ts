/**
 * The progress service's declared routes beside SCORM's (`scorm/api.ts`): what the gateway documents
 * and the security matrix checks. Data only (no store, no router).
 */
import type { RouteDeclaration } from '@portal/service-kit';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from './notifications/declarations';

export const progressApi: readonly RouteDeclaration[] = [listNotifications, markAllNotificationsRead, markNotificationRead];
