import { z } from 'zod';
import { Role } from '@corridor/contracts';
import { BaseEnv, GeocoderEnv, portVar } from '@corridor/platform';

const DEV_COOKIE_SECRET = 'corridor-dev-cookie-secret-change-me-0123456789';
const DEV_ADMIN_PASSWORD = 'corridor-admin';

const int = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const bool = (fallback: boolean) => z.stringbool().default(fallback);
const origins = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((u) => new URL(u).origin)));

export const GatewayConfig = BaseEnv.extend({
  PORT: portVar(8082),
  /** Prometheus metrics (GET /metrics) listen here, on METRICS_HOST, not on the public PORT: expose only PORT (Service, Ingress). */
  METRICS_PORT: portVar(9082),
  METRICS_HOST: z.string().default('0.0.0.0'),
  INGEST_URL: z.url().default('http://127.0.0.1:8083'),
  JOURNEY_URL: z.url().default('http://127.0.0.1:8084'),
  GEOFENCE_URL: z.url().default('http://127.0.0.1:8085'),
  OPS_API_URL: z.url().default('http://127.0.0.1:8086'),
  /** The bootstrap administrator, created at start when no administrator exists. */
  ADMIN_EMAIL: z.email().default('admin@corridor.local'),
  ADMIN_PASSWORD: z.string().min(8).default(DEV_ADMIN_PASSWORD),
  /** How long a proxied request may take before the gateway answers 504. */
  UPSTREAM_TIMEOUT_MS: int(100, 600000, 30000),

  /** Signs the session cookie (HMAC); at least 32 characters. */
  COOKIE_SECRET: z.string().min(32).default(DEV_COOKIE_SECRET),
  /** The cookie's Secure flag (browsers accept Secure cookies from http://localhost). */
  COOKIE_SECURE: bool(true),
  SESSION_TTL_SECONDS: int(60, 90 * 86400, 86400),
  TOKEN_TTL_DAYS: int(1, 3650, 7),
  TOKEN_MAX_DAYS: int(1, 3650, 365),
  /** scrypt cost as log2(N): 15 = 32 MiB and ~0.1 s per hash. Older hashes are upgraded at sign-in. */
  PASSWORD_HASH_COST: int(10, 20, 15),
  PASSWORD_RESET_TTL_SECONDS: int(60, 86400, 3600),
  /** Account mail (password reset links, the notice to an old address when an account's email changes) through SMTP, as nodemailer takes it; unset: logged only. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().default('Corridor <accounts@corridor.local>'),
  /** Where the reset link in the notification points; the token is appended as ?passwordReset=. */
  PASSWORD_RESET_URL: z.url().default('http://localhost:8082/reset-password'),
  /** Failed sign-ins of one account (email/login) from one IP address before that pair is locked for LOGIN_LOCKOUT_SECONDS. */
  LOGIN_MAX_FAILURES: int(1, 1000, 5),
  /** Failed sign-ins from one address (any accounts) after which it is slowed down (LOGIN_NEW_ADDRESS_DELAY_SECONDS) for accounts never signed in from it; never locked for them. */
  LOGIN_MAX_FAILURES_PER_IP: int(1, 100000, 50),
  /** Failed sign-ins of one account from all addresses after which addresses it never signed in from are slowed down; never locked. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: int(1, 100000, 50),
  /** While an account or an address is being guessed at: how long a new address waits before each attempt (its first included); 0 = no slowdown. */
  LOGIN_NEW_ADDRESS_DELAY_SECONDS: int(0, 3600, 30),
  LOGIN_LOCKOUT_SECONDS: int(1, 86400, 900),
  /** The wait after an account's second failed sign-in from an address (the first costs none); it doubles with each further failure there until the lock (0: none). */
  LOGIN_DELAY_SECONDS: int(0, 3600, 1),

  RATE_LIMIT_WINDOW_MS: int(1000, 3600000, 60000),
  RATE_LIMIT_IP_MAX: int(1, 10000000, 3000),
  RATE_LIMIT_USER_MAX: int(1, 10000000, 1200),
  /** Proxies (ingress, load balancer) in front of the gateway whose X-Forwarded-For entry is trusted; 0 = none. */
  TRUST_PROXY_HOPS: int(0, 10, 0),
  /** JSON and form bodies: those the gateway parses and those it passes to a service (keep it at most the services' 1 MiB). */
  BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024, 1024 * 1024),
  /** Multipart bodies streamed through to a service (document uploads). */
  PROXY_BODY_LIMIT_BYTES: int(1024, 1024 * 1024 * 1024, 25 * 1024 * 1024),
  /** The web console's origin(s), comma-separated: allowed by CORS with credentials and on the live feed. */
  CONSOLE_ORIGIN: origins.optional(),
  SOCKET_KEEPALIVE_MS: int(1000, 600000, 55000),
  /** The web console's build (apps/console/dist) served at `/`; default: this repository's build. */
  CONSOLE_DIR: z.string().min(1).optional(),

  /** OpenID Connect sign-in: set the issuer, client id and redirect URI to enable it. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** Must be this gateway's /api/session/openid/callback as the provider knows it. */
  OIDC_REDIRECT_URI: z.url().optional(),
  OIDC_SCOPE: z.string().default('openid email profile'),
  /** The claim holding the user's groups or roles (a list or a space/comma-separated string). */
  OIDC_ROLE_CLAIM: z.string().min(1).default('groups'),
  /** claim value=role pairs, comma-separated (e.g. `corridor-admins=admin,dispatch=dispatcher`). A value that is itself a role name maps to it. */
  OIDC_ROLE_MAP: z
    .string()
    .default('')
    .transform((spec, ctx) => {
      const map: Record<string, Role> = {};
      for (const pair of spec
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const eq = pair.lastIndexOf('=');
        const role = Role.safeParse(pair.slice(eq + 1).trim());
        if (eq < 1 || !role.success)
          ctx.addIssue({ code: 'custom', message: `"${pair}" is not value=role with a role among ${Role.options.join(', ')}` });
        else map[pair.slice(0, eq).trim()] = role.data;
      }
      return map;
    }),
  /** The claim holding the user's company id (a number), if the provider sends one. */
  OIDC_COMPANY_CLAIM: z.string().min(1).default('company_id'),
  /** Where the browser goes after an OpenID sign-in. */
  OIDC_SUCCESS_REDIRECT: z.string().min(1).default('/'),
  /** Tell clients (GET /api/server openIdForce) to offer OpenID sign-in only. */
  OIDC_FORCE: bool(false),
  // addresses (GET /api/server/geocode): offline unless GEOCODER_URL names a Nominatim-compatible service
  ...GeocoderEnv.shape,
}).superRefine((c, ctx) => {
  const oidc = [c.OIDC_ISSUER, c.OIDC_CLIENT_ID, c.OIDC_REDIRECT_URI];
  if (oidc.some(Boolean) && !oidc.every(Boolean)) {
    for (const [name, v] of [
      ['OIDC_ISSUER', c.OIDC_ISSUER],
      ['OIDC_CLIENT_ID', c.OIDC_CLIENT_ID],
      ['OIDC_REDIRECT_URI', c.OIDC_REDIRECT_URI],
    ] as const) {
      if (!v)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'required when OpenID Connect is configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_REDIRECT_URI)',
        });
    }
  }
  if (c.NODE_ENV === 'production') {
    // the development defaults and every published example ("change-me") open the door
    const published = (v: string, dev: string) => v === dev || /change-?me/i.test(v);
    if (published(c.COOKIE_SECRET, DEV_COOKIE_SECRET))
      ctx.addIssue({ code: 'custom', path: ['COOKIE_SECRET'], message: 'set a secret of your own in production' });
    if (published(c.ADMIN_PASSWORD, DEV_ADMIN_PASSWORD))
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'set a password of your own in production' });
  }
  if (c.TOKEN_TTL_DAYS > c.TOKEN_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['TOKEN_TTL_DAYS'], message: 'must not exceed TOKEN_MAX_DAYS' });
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;

/** The OpenID settings when sign-in through a provider is configured. */
export function openIdSettings(c: GatewayConfig) {
  if (!c.OIDC_ISSUER || !c.OIDC_CLIENT_ID || !c.OIDC_REDIRECT_URI) return undefined;
  return { issuer: c.OIDC_ISSUER, clientId: c.OIDC_CLIENT_ID, clientSecret: c.OIDC_CLIENT_SECRET, redirectUri: c.OIDC_REDIRECT_URI };
}
