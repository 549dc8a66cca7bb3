/**
 * `idtech-models` command line.
 *   inspect FILE [--json]
 *   convert MESH [--anim ANIM] [--frame N] [--backend wasm|wasm-simd|wasm-scalar|ts] [--y-up] -o OUT.obj
 * Exit codes: 0 success, 1 bad input (one line on stderr: file, error code, position), 2 bad usage.
 */
import { ModelParseError } from '../base/errors.js';
import { UsageError } from './args.js';
import { bench } from './bench.js';
import { convert } from './convert.js';
import { InputError } from './input.js';
import { inspect } from './inspect.js';

const USAGE = `usage:
  idtech-models inspect FILE [--json]
  idtech-models convert MESH.md5mesh [--anim ANIM.md5anim] [--frame N] [--backend wasm|wasm-simd|wasm-scalar|ts] [--y-up] -o OUT.obj
  idtech-models convert MODEL.md2|MODEL.md3 [--frame N] [--backend …] [--y-up] -o OUT.obj
  idtech-models convert MESH.md5mesh|MODEL.md2|MODEL.md3|PLAYER_DIR [--anim ANIM.md5anim …] [--clip name:first:count[:fps] …]
                [--fps N] [--step] [--md2-frame-nodes] [--textures DIR] [--texture-ext .png] [--z-up] -o OUT.glb|OUT.gltf
  idtech-models bench MESH.md5mesh [ANIM.md5anim] [--json]`;

function describe(file: string, e: unknown): string {
  if (e instanceof ModelParseError) {
    const where = e.line !== undefined ? `${e.line}:${e.column}` : `byte ${e.offset}`;
    return `${file}:${where}: ${e.code}: ${e.detail}`;
  }
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return `${file}: ${err.code}: ${err.message}`;
  return `${file}: ${String(e)}`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'inspect':
        await inspect(rest);
        return 0;
      case 'convert':
        await convert(rest);
        return 0;
      case 'bench':
        await bench(rest);
        return 0;
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE + '\n');
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`idtech-models: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof InputError) {
      process.stderr.write(`idtech-models: ${describe(e.file, e.cause)}\n`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    if (err && typeof err === 'object' && (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'EACCES')) {
      process.stderr.write(`idtech-models: ${err.path ?? ''}: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`idtech-models: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 70;
  },
);
