// The local OpenID Connect provider as a process, for a Playwright worker (tests/e2e/support/test.ts):
// issuer http://127.0.0.1:$E2E_OIDC_PORT, one client for the app at
// http://127.0.0.1:$E2E_PORT, one account "e2e-oidc".
import { startOidcProvider } from './oidc-provider.ts';

const port = Number(process.env.E2E_OIDC_PORT);
const appPort = Number(process.env.E2E_PORT);
const provider = await startOidcProvider({
  port,
  clients: [
    {
      // The same pair is given to the app in tests/e2e/support/test.ts.
      client_id: 'souq-e2e',
      client_secret: 'souq-e2e-secret',
      redirect_uris: [`http://127.0.0.1:${appPort}/api/auth/callback/oidc`],
    },
  ],
  accounts: {
    'e2e-oidc': { email: `oidc-${Date.now()}@example.ly`, email_verified: true, name: 'Idris OIDC', locale: 'en' },
  },
});
console.log(`OIDC test provider at ${provider.issuer}`);
const stop = () => provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
