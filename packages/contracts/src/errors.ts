/**
 * The one catalogue of error codes and their HTTP status. Every service answers errors as
 * { error: { code, message, details? } } with one of these codes.
 */
export const ErrorCatalogue = {
  VALIDATION_FAILED: { status: 400, description: 'The request is malformed; details name each wrong field.' },
  NOT_DELIVERED: {
    status: 400,
    description:
      'A notification was not delivered through one of its channels (as Traccar answers a failed test); details list every delivery.',
  },
  NOT_SUPPORTED: {
    status: 400,
    description: 'A Traccar feature Corridor does not offer (server reboot); the message says what does it instead.',
  },
  UNAUTHENTICATED: { status: 401, description: 'No valid session, token or credentials.' },
  FORBIDDEN: { status: 403, description: 'The caller may not do this.' },
  NOT_FOUND: { status: 404, description: 'No such resource, or not visible to the caller.' },
  CONFLICT: { status: 409, description: 'The resource is not in a state that allows this; details say which states do.' },
  INVALID_TRANSITION: { status: 409, description: 'A denied state change; details carry the current state and the allowed next states.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body or upload exceeds the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The content type is not accepted here.' },
  UNPROCESSABLE: { status: 422, description: 'Well-formed but cannot be processed (e.g. an unreadable document).' },
  UNKNOWN_DEVICE: { status: 422, description: 'The device unique id is not registered.' },
  RATE_LIMITED: { status: 429, description: 'Too many requests; retry after the given time.' },
  INTERNAL: { status: 500, description: 'An unexpected failure; the request id is in the logs.' },
  BAD_GATEWAY: { status: 502, description: 'An upstream service answered badly.' },
  UNAVAILABLE: { status: 503, description: 'A dependency (bus, database) is unavailable; retry later.' },
  GATEWAY_TIMEOUT: { status: 504, description: 'An upstream service did not answer in time.' },
} as const;

export type ErrorCode = keyof typeof ErrorCatalogue;
export const errorCodes = Object.keys(ErrorCatalogue) as ErrorCode[];
export const statusOf = (code: ErrorCode): number => ErrorCatalogue[code].status;
