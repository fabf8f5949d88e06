/** An API failure in the standard error shape ({ error: { code, message, details } }), with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** The WWW-Authenticate header of a 401 ('TOTP' when a second factor is needed). */
    readonly authenticate?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A denied state transition (409) lists the allowed next states in details.allowed. */
  get allowed(): string[] {
    const d = this.details as { allowed?: unknown } | undefined;
    return Array.isArray(d?.allowed) ? d.allowed.map(String) : [];
  }
}

export async function errorFromResponse(res: Response, endpointId: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const authenticate = res.headers.get('www-authenticate') ?? undefined;
  if (e && typeof e.code === 'string')
    return new ApiError(res.status, e.code, typeof e.message === 'string' ? e.message : e.code, e.details, authenticate);
  return new ApiError(res.status, `HTTP_${res.status}`, `${endpointId}: HTTP ${res.status} ${res.statusText}`);
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
