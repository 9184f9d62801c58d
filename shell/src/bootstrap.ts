import { registerApplication, start, triggerAppChange, unloadApplication, type LifeCycles } from 'single-spa';
import {
  REMOTES,
  authStore,
  firstReadsOf,
  getToken,
  provideRemoteLoader,
  remoteShows,
  resolve,
  startEarly,
  type RemoteName,
} from '@portal/web-core';
import { fallbackLifecycles } from './fallback';
import { loadLifecycles, loadModule, registerFromManifest } from './remotes';

/** A remote is active on its routes, and only when the route guard lets the person in. */
const activeWhen = (app: RemoteName) => (location: Location) => {
  const { status, user } = authStore.getSnapshot();
  return remoteShows(app, location.pathname, { status, role: user?.role ?? null });
};

/**
 * Starts a load now and hands it to the first who asks; a later ask (single-spa's retry after a
 * failure) loads afresh. A failure no one has asked for yet is not an unhandled rejection.
 */
function startedNow<T>(load: () => Promise<T>): () => Promise<T> {
  let early: Promise<T> | null = load();
  early.catch(() => undefined);
  return () => {
    const loading = early ?? load();
    early = null;
    return loading;
  };
}

/**
 * Lets the browser run what waits (input, a paint, a script that has come) before the next step: the
 * start is many short steps, each its own task, rather than one long one that blocks the page
 * (`scheduler.yield` where the browser has it, a timer elsewhere).
 */
const yieldToMain = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
};

async function main() {
  // What the page's scene reads first is asked for now, beside the sign-in check and the manifest,
  // instead of after the remote's files have come; and the header's files come meanwhile too.
  startEarly(firstReadsOf(location.pathname, location.search));
  const chrome = startedNow(() => import('./chrome/lifecycles') as Promise<LifeCycles>);
  await yieldToMain();
  document.getElementById('portal-boot')?.remove();
  void authStore.start();
  // Route activity depends on who is signed in: re-evaluate whenever that changes.
  authStore.subscribe(() => void triggerAppChange());
  // React's DOM renderer is the largest module of every page: it is made ready now, in a task of
  // its own, while the header's and the page's files are still on their way.
  await yieldToMain();
  await import('react-dom/client');
  await yieldToMain();

  // Remotes load each other's modules (the editor's quiz preview is the player's) through the shell.
  provideRemoteLoader(loadModule);
  let manifestError: unknown = null;
  await registerFromManifest().catch((err) => {
    manifestError = err;
  });
  await yieldToMain();

  // The remote of this address starts loading now, beside the sign-in check, when it is likely to
  // be shown: a public page, or a guarded one with a token (the guard decides when the check is done).
  const loaders = new Map<RemoteName, () => Promise<LifeCycles>>();
  const route = resolve(location.pathname)?.route;
  if (!manifestError && route && (route.access === 'public' || getToken()))
    loaders.set(
      route.remote,
      startedNow(() => loadLifecycles(route.remote)),
    );
  // A signed-in page's remote reads its data through the query cache, which the landing does without:
  // its files come now, beside the remote's, not once the remote's entry has asked for them.
  if (route && route.access !== 'public' && getToken()) void import('@portal/web-core/query').catch(() => undefined);
  await yieldToMain();

  registerApplication({
    name: 'chrome',
    app: chrome,
    activeWhen: () => true,
  });

  for (const app of Object.keys(REMOTES) as RemoteName[]) {
    registerApplication({
      name: app,
      app: async () => {
        try {
          if (manifestError) throw manifestError;
          return await (loaders.get(app) ?? (() => loadLifecycles(app)))();
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
  await yieldToMain();
  start({ urlRerouteOnly: true });
}

void main();
