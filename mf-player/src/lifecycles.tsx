import { createLifecycles, withQueries } from '@portal/ui';
import { Root } from './Root';

export const { bootstrap, mount, unmount } = createLifecycles('mf_player', withQueries(Root));
