import { registerApplication, start, triggerAppChange, unloadApplication, type LifeCycles } from 'single-spa';
import { authStore, decide, routeFor } from '@portal/web-core';
import { fallbackLifecycles } from './fallback';
import { loadLifecycles, registerFromManifest } from './remotes';

const REMOTE_APPS = ['mf_landing', 'mf_courses', 'mf_editor', 'mf_player', 'mf_crm', 'mf_dashboard'];

/** A remote is active on its routes, and only when the route guard lets the person in. */
const activeWhen = (app: string) => (location: Location) => {
  const route = routeFor(location.pathname);
  if (!route || route.app !== app) return false;
  const { status, user } = authStore.getSnapshot();
  return decide(location.pathname, { status, role: user?.role ?? null }).kind === 'allow';
};

async function main() {
  document.getElementById('portal-boot')?.remove();
  void authStore.start();
  // Route activity depends on who is signed in: re-evaluate whenever that changes.
  authStore.subscribe(() => void triggerAppChange());

  let manifestError: unknown = null;
  await registerFromManifest().catch((err) => {
    manifestError = err;
  });

  registerApplication({
    name: 'chrome',
    app: () => import('./chrome/lifecycles') as Promise<LifeCycles>,
    activeWhen: () => true,
  });

  for (const app of REMOTE_APPS) {
    registerApplication({
      name: app,
      app: async () => {
        try {
          if (manifestError) throw manifestError;
          return await loadLifecycles(app);
        } catch (err) {
          console.warn(`[portal] remote ${app} failed to load`, err);
          return fallbackLifecycles(app, () => {
            // Forget the failure and load the remote again.
            void (async () => {
              if (manifestError)
                manifestError = await registerFromManifest().then(
                  () => null,
                  (e: unknown) => e,
                );
              await unloadApplication(app, { waitForUnmount: false });
              await triggerAppChange();
            })();
          });
        }
      },
      activeWhen: activeWhen(app),
    });
  }
  start({ urlRerouteOnly: true });
}

void main();
