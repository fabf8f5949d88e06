import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * The code of a few workspace files as they were at a git revision, importable beside today's, so
 * that a suite measures a cut against the code it replaced in one run (alternated, same process)
 * without keeping the old code in the source tree. Each file is written from `git show rev:path`
 * next to its current version (`.before-<rev>.<name>.ts`, so its own relative imports resolve to
 * today's modules), with the imports among the given files pointed at each other's old copies.
 * `remove()` deletes the copies (call it in a finally); they are git-ignored meanwhile.
 */
export async function importBefore<M>(rev: string, files: string[], entry: string): Promise<{ mod: M; remove: () => void }> {
  const tag = rev.slice(0, 10);
  const copyOf = (file: string): string => join(dirname(file), `.before-${tag}.${basename(file)}`);
  const written: string[] = [];
  const remove = (): void => {
    for (const f of written) rmSync(join(repo, f), { force: true });
  };
  try {
    for (const file of files) {
      let text = execFileSync('git', ['show', `${rev}:${file}`], { cwd: repo, encoding: 'utf8' });
      for (const other of files) {
        if (other === file || dirname(other) !== dirname(file)) continue;
        const name = basename(other, '.ts');
        text = text.replaceAll(`from './${name}'`, `from './${basename(copyOf(other), '.ts')}'`);
      }
      writeFileSync(join(repo, copyOf(file)), text);
      written.push(copyOf(file));
    }
    const mod = (await import(join(repo, copyOf(entry)))) as M;
    return { mod, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
