import type { Principal } from './principals';

// The JSON body parsed by @koa/bodyparser, and the state our middleware sets.
declare module 'koa' {
  interface Request {
    body?: unknown;
  }
  interface DefaultState {
    user: Principal;
    /** The session the bearer token names (set by authenticate). */
    sessionId: string;
    requestId: string;
  }
}

export {};
