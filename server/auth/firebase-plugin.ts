// Firebase sign-in (docs/product/accounts-and-roles.md): a client that signed in with Firebase (a mobile app, a page
// using the Firebase SDK) exchanges its ID token for one of our sessions at
// POST /api/auth/sign-in/firebase { idToken }. The token is verified by ./firebase.ts; the
// Firebase uid is then found among linked accounts, or linked to the member with the same
// *verified* email or phone number, or a new member is created.
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';
import { FirebaseTokenError, type FirebaseVerifier } from './firebase.ts';
import { localeFromClaim } from './oidc.ts';

export const FIREBASE_PROVIDER_ID = 'firebase';

/** The exchange's JSON body; also its description in /api/openapi.json (server/http/auth-endpoints.ts). */
export const FIREBASE_SIGN_IN_BODY = z.object({
  idToken: z.string().min(1).max(8192).meta({ description: 'A Firebase ID token (a JWT)' }),
});

interface AuthUser {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image?: string | null;
}

const refuse = (status: 'UNAUTHORIZED' | 'SERVICE_UNAVAILABLE', code: string) =>
  new APIError(status, { code, message: code });

export function firebaseSignIn(verifier: FirebaseVerifier, placeholderEmail: () => string) {
  return {
    id: 'firebase-sign-in',
    endpoints: {
      signInFirebase: createAuthEndpoint(
        '/sign-in/firebase',
        // Better Auth takes JSON only (a form post gets 415): a cross-site page cannot send it without
        // a CORS preflight we never grant, so nobody can sign a visitor into another account.
        { method: 'POST', body: FIREBASE_SIGN_IN_BODY },
        async (ctx) => {
          let identity: Awaited<ReturnType<FirebaseVerifier['verify']>>;
          try {
            identity = await verifier.verify(ctx.body.idToken);
          } catch (error) {
            if (!(error instanceof FirebaseTokenError)) throw error;
            throw refuse(error.code === 'network-request-failed' ? 'SERVICE_UNAVAILABLE' : 'UNAUTHORIZED', error.code);
          }
          const adapter = ctx.context.internalAdapter;
          let user: AuthUser | null = null;
          const linked = await adapter.findAccountByKey({ providerId: FIREBASE_PROVIDER_ID, accountId: identity.uid });
          if (linked) user = (await adapter.findUserById(linked.userId)) as AuthUser | null;
          if (!user) {
            const email = identity.email?.toLowerCase() ?? null;
            const byEmail = email ? await adapter.findUserByEmail(email) : null;
            const byPhone = identity.phoneNumber
              ? ((await ctx.context.adapter.findOne({
                  model: 'user',
                  where: [{ field: 'phoneNumber', value: identity.phoneNumber }],
                })) as AuthUser | null)
              : null;
            if (byEmail) {
              // Linking needs both sides to vouch for the address; otherwise whoever controls the
              // Firebase account could take over a member's account.
              if (!identity.emailVerified || !byEmail.user.emailVerified) {
                throw refuse('UNAUTHORIZED', 'account-exists-with-different-credential');
              }
              user = byEmail.user as AuthUser;
            } else if (byPhone) {
              user = byPhone; // Firebase proved the number by SMS, as we did.
            } else {
              user = (await adapter.createUser(
                {
                  email: email ?? placeholderEmail(),
                  emailVerified: Boolean(email && identity.emailVerified),
                  name: (identity.name ?? email?.split('@')[0] ?? identity.phoneNumber ?? 'Souq').slice(0, 120),
                  image: identity.picture && identity.picture.length <= 500 ? identity.picture : null,
                  locale: localeFromClaim(ctx.headers?.get('x-locale')),
                  ...(identity.phoneNumber ? { phoneNumber: identity.phoneNumber, phoneNumberVerified: true } : {}),
                },
                { method: 'oauth', oauth: { providerId: FIREBASE_PROVIDER_ID } },
              )) as AuthUser;
            }
            await adapter.linkAccount({ userId: user.id, providerId: FIREBASE_PROVIDER_ID, accountId: identity.uid });
          }
          const session = await adapter.createSession(user.id);
          if (!session) throw refuse('UNAUTHORIZED', 'internal');
          await setSessionCookie(ctx, { session, user: user as Parameters<typeof setSessionCookie>[1]['user'] });
          return ctx.json({ user: { id: user.id, name: user.name } });
        },
      ),
    },
  } as const;
}
