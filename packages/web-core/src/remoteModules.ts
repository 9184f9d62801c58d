/**
 * One remote's module for another (Module Federation), e.g. the player's `mf_player/QuizPreview` in
 * the quiz editor. The shell owns the federation runtime and the remotes' manifest, and hands its
 * loader here at start (provideRemoteLoader); remotes, which share this web core as a singleton,
 * load through it, so they never bundle a runtime or a list of URLs of their own.
 */
type Loader = (id: string) => Promise<unknown>;

let loader: Loader | null = null;

export const REMOTE_MODULE_MSG = { unavailable: 'Не удалось загрузить модуль портала. Обновите страницу.' } as const;

export function provideRemoteLoader(load: Loader): void {
  loader = load;
}

/** `scope/module`, e.g. mf_player/QuizPreview; rejects with a Russian message when it cannot be had. */
export async function loadRemoteModule<T>(id: string): Promise<T> {
  if (!loader) throw new Error(REMOTE_MODULE_MSG.unavailable);
  const mod = await loader(id).catch(() => null);
  if (!mod) throw new Error(REMOTE_MODULE_MSG.unavailable);
  return mod as T;
}
