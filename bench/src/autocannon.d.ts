// The few parts of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  function autocannon(
    options: autocannon.Options,
    done: (err: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  namespace autocannon {
    interface Histogram {
      average: number;
      mean: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      max: number;
    }
    export interface Result {
      requests: Histogram & { total: number };
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
    export interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Builds the request just before it is sent; the context is the connection's own. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      /** Asking for it makes autocannon read every body; headers are the answer's, as sent. */
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers?: Record<string, string | string[]>,
      ) => void;
    }
    export interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      overallRate?: number;
      /** Seconds before a request counts as a timeout (default 10). */
      timeout?: number;
      pipelining?: number;
      headers?: Record<string, string>;
      method?: string;
      body?: string;
      requests?: Request[];
    }
    export interface Instance extends EventEmitter {
      on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): this;
    }
  }
  export = autocannon;
}
