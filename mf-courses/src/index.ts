// Only an asynchronous boundary: the remote is consumed through its exposed lifecycles.
import('./lifecycles');
