/**
 * The little of oidc-provider (v9, shipped without types) the tests' provider uses
 * (oidcProvider.ts). Its documentation: https://github.com/panva/node-oidc-provider/blob/main/docs/README.md
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface OidcContext {
    route?: string;
    provider: Provider;
    client?: { clientId: string };
    session?: { accountId: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
  }
  interface KoaContext {
    status: number;
    body: unknown;
    oidc?: OidcContext;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients?: Array<Record<string, unknown>>;
    jwks?: { keys: object[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: () => boolean };
    ttl?: Record<string, number>;
    features?: Record<string, { enabled: boolean }>;
    findAccount?: (ctx: KoaContext, id: string) => Promise<Account | undefined>;
    loadExistingGrant?: (ctx: KoaContext & { oidc: OidcContext }) => Promise<Grant | undefined>;
  }
  class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: { new (init: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
  export default Provider;
}
