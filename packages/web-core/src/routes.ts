import type { ReactNode } from 'react';
import { resolve, type RemoteName, type SceneOf, type SceneParams } from '@portal/routes';
import { usePathname } from './navigation';

// The one route table (path → remote → scene → roles) and its path builders, guard and navigation.
export * from '@portal/routes';

/** What a remote's root renders for each of its scenes, given the route's parameters. */
export type Scenes<R extends RemoteName> = { [S in SceneOf<R>]: (params: SceneParams<R, S>) => ReactNode };

/** The scene of the current path when this remote shows it; nothing while the path belongs to another. */
export function useScene<R extends RemoteName>(remote: R, scenes: Scenes<R>): ReactNode {
  const match = resolve(usePathname());
  if (!match || match.route.remote !== remote) return null;
  // The route is this remote's, so its scene is a key of `scenes` and its parameters are the scene's.
  const render = (scenes as unknown as Record<string, (params: Record<string, string>) => ReactNode>)[match.route.scene];
  return render(match.params);
}
