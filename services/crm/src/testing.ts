import type { AuditEvent, AuthResponse, Role } from '@portal/contracts';
import { publishedAuditEvents, startTestService, type TestService } from '@portal/devstack/testing';
import { startAuth, userWithRole } from '@portal/svc-auth/testing';
import { crmRouters } from './app';
import { crmModels, type CrmModels } from './models';

export interface CrmTestBed {
  auth: Awaited<ReturnType<typeof startAuth>>;
  crm: TestService;
  models: CrmModels;
  /** One signed-in user per role, made once per test file. */
  as: Record<Role, AuthResponse>;
  close(): Promise<void>;
}

/** A real auth service and a real crm service with their own databases, and a user of each role. */
export async function startCrm(): Promise<CrmTestBed> {
  const auth = await startAuth();
  const crm = await startTestService('crm', crmRouters, { env: { AUTH_URL: auth.url } });
  const models = crmModels(crm.ctx.store);
  // The unique indexes (inn; orgId + email) must exist before the tests lean on them.
  await Promise.all([models.organizations.init(), models.contacts.init()]);
  const roles: Role[] = ['ADMIN', 'MANAGER', 'CURATOR', 'CLIENT', 'CANDIDATE'];
  const users = await Promise.all(roles.map((role) => userWithRole(auth, role)));
  const as = Object.fromEntries(roles.map((role, i) => [role, users[i]])) as Record<Role, AuthResponse>;
  return {
    auth,
    crm,
    models,
    as,
    async close() {
      await crm.close();
      await auth.close();
    },
  };
}

/** The audit events this service has published about one record (no audit worker runs in tests). */
export async function auditEventsFor(crm: TestService, entityId: string): Promise<AuditEvent[]> {
  return (await publishedAuditEvents(crm))
    .filter((e) => e.entityId === entityId)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

export { uniqueInn } from '@portal/devstack/testing';
