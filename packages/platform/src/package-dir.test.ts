import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageDir } from './package-dir';

describe('packageDir', () => {
  it('finds the package of a source file and of a compiled chunk alike', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-dir-'));
    writeFileSync(join(root, 'package.json'), '{}');
    mkdirSync(join(root, 'src', 'db'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    expect(packageDir(pathToFileURL(join(root, 'src', 'db', 'migrate.ts')).href)).toBe(root);
    expect(packageDir(pathToFileURL(join(root, 'dist', 'chunk-abc.js')).href)).toBe(root);
  });

  it('names the folder when no package holds it', () => {
    expect(() => packageDir('file:///no-package-here/src/x.ts')).toThrow(/no package.json above \/no-package-here\/src/);
  });
});
