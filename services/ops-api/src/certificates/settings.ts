/** Certificate fees, validity and the verification address printed in the QR code. */
export interface CertificateSettings {
  /** Fee per company country (ISO alpha-2); `default` for any other. */
  fees: Record<string, { amount: number; currency: string }> & { default: { amount: number; currency: string } };
  /** How long an issued certificate stays valid after generation. */
  validityDays: number;
  /** CERTIFICATE_VERIFY_URL: the public verification address; the code is appended as a path segment. */
  verifyUrl: string;
}

/**
 * Defaults (fictional fee levels in local currency; set the real ones through configuration): KE
 * companies pay in KES, TZ companies in TZS, others in USD.
 */
export const defaultCertificateSettings: CertificateSettings = {
  fees: { KE: { amount: 2500, currency: 'KES' }, TZ: { amount: 50000, currency: 'TZS' }, default: { amount: 25, currency: 'USD' } },
  validityDays: 30,
  verifyUrl: 'http://localhost:8082/api/single-use-certificates/verify',
};

export const feeFor = (s: CertificateSettings, country: string | undefined) => (country && s.fees[country]) || s.fees.default;
