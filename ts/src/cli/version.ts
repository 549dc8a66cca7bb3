/**
 * The package's version, read from its package.json at run time: the CLI runs from dist/cli.js (bin/ imports it),
 * one folder below package.json, which npm always ships. Read rather than bundled so the version has one source
 * and a `npm version` bump needs no rebuild. Looks upward so it also works from ts/src/cli (tests, tsx).
 */
import { readFileSync } from 'node:fs';

const PACKAGE_NAME = 'idtech-models';

export function packageVersion(from: string | URL = import.meta.url): string {
  for (let dir = new URL('./', from); ; dir = new URL('../', dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    } catch {
      // no (readable) package.json here: keep looking upward
    }
    if (new URL('../', dir).href === dir.href) return 'unknown';
  }
}
