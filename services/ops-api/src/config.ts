import { z } from 'zod';
import { BaseEnv, GeocoderEnv, portVar } from '@corridor/platform';
import { parseOutboundAllowList } from './notification-rules/outbound-address';
import { ReportEnv } from './reports/settings';
import { DeviceStateEnv } from './device-state/settings';
import { ParserEnv } from './parsers/settings';

export const OpsApiConfig = BaseEnv.extend({
  PORT: portVar(8086),
  /** Prometheus metrics (GET /metrics, no authentication) listen here, on METRICS_HOST, not on PORT: reachable inside the NetworkPolicy only. */
  METRICS_PORT: portVar(9086),
  METRICS_HOST: z.string().default('0.0.0.0'),
  // the journey service, which checks the journey and route ids ops-api requests carry (shipments)
  JOURNEY_URL: z.url({ protocol: /^https?$/ }).optional(),
  // the geofence service, which checks the geofence ids ops-api requests carry (geofence report, positions export)
  GEOFENCE_URL: z.url({ protocol: /^https?$/ }).optional(),
  // documents: size limit, virus-scan command (file on stdin; exit 0 clean, 1 infected), S3-compatible storage when S3_BUCKET is set
  DOCUMENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(512 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  DOCUMENTS_SCAN_COMMAND: z.string().optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  S3_PREFIX: z.string().default(''),
  // notification rules: mail through SMTP (nodemailer URL, e.g. smtp://user:pass@mail.example:587; unset = no mail channel), webhook retries
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().default('Corridor <notifications@corridor.local>'),
  // the console page a notification email's verification link opens (?token=… is added), as PASSWORD_RESET_URL is the gateway's
  NOTIFICATION_EMAIL_VERIFY_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:8082/verify-email'),
  WEBHOOK_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(5000),
  // webhooks reach public addresses only; internal receivers by hostname or CIDR, comma-separated (e.g. hooks.internal,10.20.0.0/16)
  WEBHOOK_ALLOW: z
    .string()
    .default('')
    .transform((spec, ctx) => {
      try {
        return parseOutboundAllowList(spec);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `hostnames and CIDR ranges, comma-separated: ${(err as Error).message}` });
        return z.NEVER;
      }
    }),
  // complaints may be reopened this many days after they were closed
  COMPLAINT_REOPEN_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  // the public address a certificate's QR code opens (the code is appended as a path segment)
  CERTIFICATE_VERIFY_URL: z.url().optional(),
  CERTIFICATE_VALIDITY_DAYS: z.coerce.number().int().min(1).max(365).optional(),
  // reports: REPORT_MAX_PERIOD_DAYS (92) and the trip thresholds with Traccar's defaults (REPORT_TRIP_*, seconds and metres)
  ...ReportEnv.shape,
  // scheduled reports: how often due runs are looked for, seconds (0 = never)
  REPORT_SCHEDULE_CHECK_S: z.coerce.number().int().min(0).max(86400).default(60),
  /** How long a scheduled report run may stay running before another check takes it again (its instance stopped mid-run). */
  REPORT_RUN_LEASE_S: z.coerce.number().int().min(10).max(86400).default(900),
  // inbox notices by mail and webhook (/settings/notification): how often committed notices are looked for, ms (0 = never)
  NOTICE_DELIVERY_CHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  // device status: DEVICE_STATUS_TIMEOUT_S (600), DEVICE_STATE_PERSIST_S (60)
  ...DeviceStateEnv.shape,
  // the processes that read uploaded documents: DOCUMENT_PARSERS, DOCUMENT_PARSE_QUEUE, DOCUMENT_PARSE_TIMEOUT_S, DOCUMENT_PARSE_MEMORY_MB, DOCUMENT_INFLATED_MB
  ...ParserEnv.shape,
  // addresses: offline (packages/geodata) unless GEOCODER_URL names a Nominatim-compatible service (reports' start and end addresses)
  ...GeocoderEnv.shape,
});
export type OpsApiConfig = z.infer<typeof OpsApiConfig>;
