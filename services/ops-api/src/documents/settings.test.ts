import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@corridor/platform';
import { OpsApiConfig } from '../config';
import { documentsSettingsFrom } from './settings';
import { noScanner } from './virus-scan';

describe('documents settings from the environment', () => {
  it('defaults to local disk under DATA_DIR, 10 MiB and no scanner', () => {
    const s = documentsSettingsFrom(parseConfig(OpsApiConfig, { DATA_DIR: '/tmp/x' }));
    expect(s.storage.backend).toBe('local');
    expect(s.maxBytes).toBe(10 * 1024 * 1024);
    expect(s.scanner).toBe(noScanner);
  });

  it('uses S3 when S3_BUCKET is set and a scanner command when DOCUMENTS_SCAN_COMMAND is', () => {
    const s = documentsSettingsFrom(
      parseConfig(OpsApiConfig, {
        S3_BUCKET: 'corridor-docs',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        DOCUMENTS_SCAN_COMMAND: 'clamdscan --no-summary -',
        DOCUMENTS_MAX_BYTES: '2048',
      }),
    );
    expect(s.storage.backend).toBe('s3');
    expect(s.scanner).not.toBe(noScanner);
    expect(s.maxBytes).toBe(2048);
  });

  it('names every bad variable', () => {
    let err: unknown;
    try {
      parseConfig(OpsApiConfig, { DOCUMENTS_MAX_BYTES: 'lots', S3_BUCKET: 'Not_A_Bucket', S3_FORCE_PATH_STYLE: 'maybe' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.map((p) => p.variable).sort()).toEqual([
      'DOCUMENTS_MAX_BYTES',
      'S3_BUCKET',
      'S3_FORCE_PATH_STYLE',
    ]);
  });
});
