import { describe, expect, it } from 'vitest';
import { parseConfig } from '@corridor/platform';
import { StackConfig, statusTimeoutS } from './config';
import { DEMO_SIGNAL_LOSS_MINUTES } from './demo/routes';

const timeoutFor = (env: Record<string, string>) => statusTimeoutS(parseConfig(StackConfig, env));

describe("the stack's device status timeout", () => {
  it("follows the demo routes' signal loss with the demo, so a silent demo truck turns unknown as its flag opens", () => {
    expect(timeoutFor({})).toBe(DEMO_SIGNAL_LOSS_MINUTES * 60);
    expect(timeoutFor({ DEMO: 'true' })).toBe(60);
  });

  it("is the services' default without the demo (600 s, as the journey service's default signal loss of 10 minutes)", () => {
    expect(timeoutFor({ DEMO: 'false' })).toBe(600);
  });

  it('is DEVICE_STATUS_TIMEOUT_S when set, with or without the demo', () => {
    expect(timeoutFor({ DEVICE_STATUS_TIMEOUT_S: '300' })).toBe(300);
    expect(timeoutFor({ DEMO: 'false', DEVICE_STATUS_TIMEOUT_S: '45' })).toBe(45);
    expect(() => timeoutFor({ DEVICE_STATUS_TIMEOUT_S: '0' })).toThrow(/DEVICE_STATUS_TIMEOUT_S/);
  });
});
