import { spawn } from 'node:child_process';

type ScanResult = { status: 'clean' | 'not_scanned'; detail?: string } | { status: 'infected'; detail: string };

/** The virus-scan hook every upload passes before it is stored. */
export interface VirusScanner {
  scan(bytes: Buffer, filename: string): Promise<ScanResult>;
}

/** The default: accepts everything and records that nothing scanned it. */
export const noScanner: VirusScanner = {
  async scan() {
    return { status: 'not_scanned' };
  },
};

/**
 * Runs a scanner command with the file on stdin, e.g. `clamdscan --no-summary -` (ClamAV's
 * convention: exit 0 = clean, 1 = infected, anything else = the scanner failed). No shell is used.
 */
export function commandScanner(argv: readonly string[], timeoutMs = 30_000): VirusScanner {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('commandScanner needs a command');
  return {
    scan(bytes) {
      return new Promise((resolvePromise, reject) => {
        const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          if (out.length < 4000) out += d.toString();
        });
        child.stderr.on('data', (d: Buffer) => {
          if (out.length < 4000) out += d.toString();
        });
        child.on('error', reject);
        child.stdin.on('error', () => undefined); // a scanner that exits before reading everything
        child.on('close', (code, signal) => {
          const detail = out.trim().slice(0, 500);
          if (code === 0) resolvePromise({ status: 'clean', ...(detail ? { detail } : {}) });
          else if (code === 1) resolvePromise({ status: 'infected', detail: detail || 'the scanner reported an infection' });
          else reject(new Error(`virus scanner failed (${signal ?? `exit ${code}`}): ${detail}`));
        });
        child.stdin.end(bytes);
      });
    },
  };
}
