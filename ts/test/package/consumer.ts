/**
 * The package as a user gets it: `npm pack` of this repository (the built dist/), installed with npm into a scratch
 * consumer project under the system temp dir. The install is offline: the package's runtime dependencies (and
 * theirs) are packed from this repository's node_modules and installed beside it, so the consumer gets exactly the
 * locked versions without asking the registry (an offline `npm install` of a tarball cannot resolve a version range
 * from the cache alone: npm keeps tarballs there, not the registry's version lists).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { execChild, runChild, type ChildResult } from '../helpers/child.js';
import { REPO } from '../helpers/models.js';

export interface Consumer {
  /** The consumer project: package.json (type: module) and node_modules/idtech-models. */
  dir: string;
  /** The installed package's folder. */
  installed: string;
  /** Paths inside the tarball, as `npm pack` listed them. */
  packedFiles: string[];
  /** `npm pack --json`'s entry for the tarball: its size, unpacked size, file count, each file's size. */
  packed: PackEntry;
  /** Writes files (paths relative to the project). */
  write(files: Record<string, string>): void;
  /** Runs `node ARGS` in the project; never rejects. */
  node(args: string[]): Promise<ChildResult>;
  remove(): void;
}

export interface PackEntry {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

const npm = (args: string[], cwd: string) => execChild('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd });

/** The folders (in REPO/node_modules) of the package's runtime dependencies and of theirs, found as Node finds them. */
function runtimeDependencyFolders(): string[] {
  const found = new Set<string>();
  const visit = (from: string) => {
    const pkg = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      // Node's lookup: the nearest node_modules up from the dependent, ending at the repository's own.
      let dir = from;
      let folder: string | undefined;
      for (;;) {
        const candidate = join(dir, 'node_modules', name);
        try {
          readFileSync(join(candidate, 'package.json'));
          folder = candidate;
          break;
        } catch {
          if (dir === REPO || dirname(dir) === dir) break;
          dir = dirname(dir);
        }
      }
      if (!folder) throw new Error(`runtime dependency ${name} of ${from} is not installed (run npm install)`);
      if (!found.has(folder)) {
        found.add(folder);
        visit(folder);
      }
    }
  };
  visit(REPO);
  return [...found];
}

export async function packAndInstall(): Promise<Consumer> {
  const root = mkdtempSync(join(tmpdir(), 'idtech-consumer-'));
  try {
    const [packed] = JSON.parse(await npm(['pack', REPO, '--json', '--pack-destination', root], root)) as PackEntry[];
    const dir = join(root, 'app');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const deps: string[] = [];
    for (const folder of runtimeDependencyFolders()) {
      const [dep] = JSON.parse(await npm(['pack', folder, '--json', '--ignore-scripts', '--pack-destination', root], root)) as { filename: string }[];
      deps.push(join(root, dep.filename));
    }
    await npm(['install', '--offline', '--no-package-lock', '--ignore-scripts', join(root, packed.filename), ...deps], dir);
    // Node's types for the Node consumers' tsc runs, as a project that installed @types/node has them.
    mkdirSync(join(dir, 'node_modules', '@types'));
    symlinkSync(join(REPO, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
    return {
      dir,
      installed: join(dir, 'node_modules', 'idtech-models'),
      packedFiles: packed.files.map((f) => f.path).sort(),
      packed,
      write(files) {
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), text);
        }
      },
      node: (args) => runChild(process.execPath, args, { cwd: dir }),
      remove: () => rmSync(root, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

/** One parse of each file for all the programs of a test run (lib files, @types/node and the package's types). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * tsc's diagnostics for the project at `tsconfigPath`, as `tsc -p` reports them without skipLibCheck, for the
 * project's own files and the installed package's declarations (TypeScript's lib and @types files are not ours to
 * check, and checking them would take most of the time).
 */
export function typeCheck(tsconfigPath: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, ...rest) => {
    const key = `${fileName}|${typeof language === 'object' ? `${language.languageVersion}|${language.impliedNodeFormat}` : language}`;
    if (!parsed.has(key)) parsed.set(key, read(fileName, language, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const ours = program.getSourceFiles().filter((f) => !/[\\/]node_modules[\\/]@types[\\/]/.test(f.fileName) && !program.isSourceFileDefaultLibrary(f));
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  const cwd = dirname(tsconfigPath);
  return diagnostics.map((d) => ts.formatDiagnostic(d, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => cwd, getNewLine: () => '\n' }).trim());
}
