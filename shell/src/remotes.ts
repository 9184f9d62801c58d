import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { LifeCycles } from 'single-spa';

/** Reads the runtime manifest: remote URLs are data, so a remote can be redeployed alone. */
export async function registerFromManifest(): Promise<string[]> {
  // The page preloads it (index.html); the gateway sends it with Cache-Control: no-cache, so a
  // redeployed remote is seen at the next page load.
  const res = await fetch('/remotes.json');
  if (!res.ok) throw new Error(`remotes.json: ${res.status}`);
  const remotes = (await res.json()) as Record<string, string>;
  registerRemotes(Object.entries(remotes).map(([name, entry]) => ({ name, entry })));
  return Object.keys(remotes);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Loads a remote's lifecycles, retrying once; gives up with an error the fallback can show. */
export async function loadLifecycles(scope: string, attempts = 2): Promise<LifeCycles> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const mod = await loadRemote<LifeCycles>(`${scope}/lifecycles`);
      if (!mod || typeof mod.mount !== 'function') throw new Error(`${scope} exposes no lifecycles`);
      return mod;
    } catch (err) {
      lastError = err;
      if (attempt < attempts) await sleep(500);
    }
  }
  throw lastError;
}

/** A module a remote exposes besides its lifecycles (`mf_player/QuizPreview`), for another remote. */
export const loadModule = (id: string): Promise<unknown> => loadRemote<unknown>(id);
