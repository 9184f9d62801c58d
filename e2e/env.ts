import path from 'node:path';
import { ROOT } from '@portal/devstack/util';

/**
 * The e2e stack runs beside a developer's portal: every port is the default plus this offset
 * (E2E_PORT_OFFSET lets several stacks run at once on one machine).
 */
export const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 100);
export const E2E_GATEWAY_URL = `http://127.0.0.1:${8080 + E2E_PORT_OFFSET}`;
/** The one external media origin the e2e stack allows (MEDIA_ORIGINS); nothing answers there but the tests' routes. */
export const E2E_MEDIA_ORIGIN = 'https://media.portal-e2e.test';
/** The tests' OpenID provider (packages/devstack/src/oidcProvider.ts): the auth service signs people in through it. */
export const E2E_OIDC_PORT = 9400 + E2E_PORT_OFFSET;
/** The departments of the e2e directory's people (directory-sync.spec.ts): no other journey uses them. */
export const E2E_LDAP_DEPARTMENTS = ['Каталог: Бухгалтерия', 'Каталог: Склад', 'Каталог: ИТ'] as const;
/** How the global setup started this offset's stack (environment, ports), for the journeys that start processes of their own. */
export const E2E_STACK_FILE = path.join(ROOT, `.data/e2e-stack-${E2E_PORT_OFFSET}.json`);
