/**
 * Debian's Chromium driven by playwright-core (never `playwright install`), and the repo's static server
 * started in-process on a free port. Chromium comes from `CHROMIUM` in target/toolchain.env (written by
 * scripts/setup.sh), else /usr/bin/chromium; a missing browser fails the tests, it does not skip them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { startServer } from '../../../scripts/serve.mjs';
import { REPO } from '../helpers/models.js';

export const ARTIFACTS = join(REPO, 'target', 'test-artifacts');

/**
 * How long a page may take to get somewhere (playwright's waits and navigations): generous, since a test must pass
 * on a machine whose cores are busy with other work; what a page is waiting for is a state, never a duration.
 */
export const LOADED_MS = 300_000;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumPath(): string {
  const env = join(REPO, 'target', 'toolchain.env');
  const fromEnv = existsSync(env) ? /^CHROMIUM='([^']*)'/m.exec(readFileSync(env, 'utf8'))?.[1] : undefined;
  const path = process.env.CHROMIUM || fromEnv || '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path}: run scripts/setup.sh (it installs Debian's chromium)`);
  return path;
}

export interface Harness {
  /** The static server's origin: /dist/, /demo/ (the built viewer), /fixtures/, /models/ (../shared/models), /test/ (this folder), and the extra mounts. */
  url: string;
  context: BrowserContext;
  close(): Promise<void>;
}

/** One server and one headless Chromium with a fresh profile, for a whole test file; `extra` mounts more folders. */
export async function startHarness(extra: Record<string, string> = {}): Promise<Harness> {
  for (const f of ['dist/browser.js', 'dist/worker.js', 'dist/demo/index.html', 'dist/demo/main.js', 'dist/demo/worker.js']) {
    if (!existsSync(join(REPO, f))) throw new Error(`${f} is missing: run node scripts/bundle.mjs (npm test builds it)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await startServer({ port: 0, extra: { '/test/': join(REPO, 'ts', 'test', 'browser'), ...extra } });
  const profile = mkdtempSync(join(tmpdir(), 'idtech-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 680 },
    });
    context.setDefaultTimeout(LOADED_MS);
    context.setDefaultNavigationTimeout(LOADED_MS);
    return {
      url: server.url,
      context,
      async close() {
        await context.close();
        await server.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await server.close();
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
}
