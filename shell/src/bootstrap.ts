import { registerApplication, start, triggerAppChange, unloadApplication, type LifeCycles } from 'single-spa';
import { REMOTES, authStore, provideRemoteLoader, remoteShows, type RemoteName } from '@portal/web-core';
import { fallbackLifecycles } from './fallback';
import { loadLifecycles, loadModule, registerFromManifest } from './remotes';

/** A remote is active on its routes, and only when the route guard lets the person in. */
const activeWhen = (app: RemoteName) => (location: Location) => {
  const { status, user } = authStore.getSnapshot();
  return remoteShows(app, location.pathname, { status, role: user?.role ?? null });
};

async function main() {
  document.getElementById('portal-boot')?.remove();
  void authStore.start();
  // Route activity depends on who is signed in: re-evaluate whenever that changes.
  authStore.subscribe(() => void triggerAppChange());

  // Remotes load each other's modules (the editor's quiz preview is the player's) through the shell.
  provideRemoteLoader(loadModule);
  let manifestError: unknown = null;
  await registerFromManifest().catch((err) => {
    manifestError = err;
  });

  registerApplication({
    name: 'chrome',
    app: () => import('./chrome/lifecycles') as Promise<LifeCycles>,
    activeWhen: () => true,
  });

  for (const app of Object.keys(REMOTES) as RemoteName[]) {
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
