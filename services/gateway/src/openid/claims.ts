import { Role } from '@corridor/contracts';
import { AppError } from '@corridor/platform';

export interface ClaimSettings {
  /** Dotted path of the claim with groups or roles (e.g. `groups`, `realm_access.roles`). */
  roleClaim: string;
  /** claim value → role; a value that is itself a role name (other than device) maps to it. */
  roleMap: Record<string, Role>;
  companyClaim: string;
}

export interface MappedClaims {
  subject: string;
  email: string;
  name: string;
  roles: Role[];
  /** undefined when the provider does not say (the stored company stays). */
  companyId: number | null | undefined;
}

function at(claims: Record<string, unknown>, path: string): unknown {
  let v: unknown = claims;
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function values(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  return [];
}

/** ID token and userinfo claims → who the user is and which roles they have here. */
export function mapClaims(issuer: string, claims: Record<string, unknown>, s: ClaimSettings): MappedClaims {
  const sub = claims.sub;
  if (typeof sub !== 'string' || !sub) throw new AppError('UNAUTHENTICATED', 'The identity provider gave no subject');
  const email = claims.email;
  if (typeof email !== 'string' || !email.includes('@'))
    throw new AppError('FORBIDDEN', 'The identity provider gave no email address for this account');
  if (claims.email_verified === false) throw new AppError('FORBIDDEN', 'The identity provider has not verified this email address');
  const roles = new Set<Role>();
  for (const v of values(at(claims, s.roleClaim))) {
    const mapped = s.roleMap[v] ?? (Role.safeParse(v).success && v !== 'device' ? (v as Role) : undefined);
    if (mapped) roles.add(mapped);
  }
  const rawCompany = at(claims, s.companyClaim);
  let companyId: number | null | undefined;
  if (rawCompany === null) companyId = null;
  else if (rawCompany !== undefined) {
    const n = Number(rawCompany);
    if (!Number.isInteger(n) || n <= 0)
      throw new AppError('FORBIDDEN', `The identity provider's ${s.companyClaim} claim is not a company id`);
    companyId = n;
  }
  const name = [claims.name, claims.preferred_username, email].find((x): x is string => typeof x === 'string' && x.trim() !== '')!;
  return { subject: `${issuer}|${sub}`, email, name: name.slice(0, 128), roles: [...roles], companyId };
}
