/**
 * The tests' OpenID provider as a process of its own (the Playwright stack starts it, see
 * `startOidcProviderProcess`): `node --import tsx packages/devstack/src/oidcProviderProcess.ts`, configured by
 * OIDC_TEST_PORT, OIDC_TEST_CLIENT_SECRET, OIDC_TEST_REDIRECT_URIS and OIDC_TEST_POST_LOGOUT_URIS
 * (comma-separated). It serves DEFAULT_OIDC_ACCOUNTS until SIGTERM.
 */
import { startOidcProvider } from './oidcProvider';

const list = (value: string | undefined) => (value ?? '').split(',').filter(Boolean);

async function main() {
  const secret = process.env.OIDC_TEST_CLIENT_SECRET;
  if (!secret) throw new Error('OIDC_TEST_CLIENT_SECRET is not set');
  const provider = await startOidcProvider({
    port: Number(process.env.OIDC_TEST_PORT ?? 0),
    clientSecret: secret,
    redirectUris: list(process.env.OIDC_TEST_REDIRECT_URIS),
    postLogoutRedirectUris: list(process.env.OIDC_TEST_POST_LOGOUT_URIS),
  });
  console.log(`the tests' OpenID provider answers at ${provider.issuer}`);
  const stop = () => void provider.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
