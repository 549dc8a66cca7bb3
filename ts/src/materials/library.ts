/**
 * Every shader and material definition of a game folder, found the way the engines find them.
 *
 * - Quake 3 shader scripts: every `scripts/*.shader` (direct children, ioquake3 ScanAndLoadShaderFiles lists
 *   `FS_ListFiles("scripts", ".shader")`). ioquake3 concatenates the files in reverse listing order and takes the
 *   first definition of a name in that text, so the last file listed wins and, inside a file, the first
 *   definition. Our listing is sorted by path (the engine's follows pak order), so: the alphabetically last file
 *   wins. Files the engine would ignore (unbalanced braces) are skipped with a SCRIPT_IGNORED warning.
 * - Doom 3 materials: every `materials/*.mtr` (DeclManager `RegisterDeclFolder("materials", ".mtr")`, files in
 *   sorted order, the first definition wins, later ones are warned about), and `scripts/*.mtr` — not an engine's
 *   folder, but where Tremulous-era packs ship their XreaL materials next to the shaders (corpus A4).
 */
import type { ParseWarning } from '../base/errors.js';
import { ModelParseError } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { ErrorCode } from '../base/errors.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';
import { readScriptFile } from '../vfs/bounded-read.js';
import { parseMtr, type MtrMaterial } from './mtr.js';
import { parseShaderScript, type ShaderDefinition } from './shader-script.js';
import type { MaterialWarning } from './types.js';

export interface LibraryShader extends ShaderDefinition {
  /** The script file it comes from. */
  path: string;
}

export interface LibraryMaterial extends MtrMaterial {
  path: string;
}

export interface MaterialLibrary {
  /** Quake 3 shaders by lower-cased name. */
  shaders: Map<string, LibraryShader>;
  /** Doom 3 / XreaL materials by canonical name (names.ts `declKey`). */
  materials: Map<string, LibraryMaterial>;
  /** Script files read, in the order they were read. */
  files: string[];
  /** The folder has `materials/*.mtr`: a Doom 3 game (its implicit materials blend; resolver.ts md5). */
  doom3: boolean;
  warnings: MaterialWarning[];
}

/** Files directly inside `folder` with one of `extensions` (the engines' listings are not recursive). */
async function direct(fs: FileSystem, folder: string, extensions: readonly string[]): Promise<VfsFile[]> {
  const prefix = `${folder}/`.toLowerCase();
  return (await fs.list(folder, extensions)).filter((f) => {
    const p = f.path.toLowerCase();
    return p.startsWith(prefix) && !p.slice(prefix.length).includes('/');
  });
}

const fromParse = (path: string) => (w: ParseWarning): MaterialWarning => ({ code: w.code, message: w.message, path, line: w.line, column: w.column });

function ignored(path: string, e: unknown): MaterialWarning {
  if (!(e instanceof ModelParseError)) throw e;
  // over maxScriptBytes, or a member over an archive's limits: not read at all (the engine would read it; the bounds
  // are ours, docs/security.md)
  if (e.code === ErrorCode.ResourceLimit || e.code === ErrorCode.InflateLimit) return { code: 'SCRIPT_TOO_LARGE', message: `${path} is not read: ${e.detail}`, path };
  return { code: 'SCRIPT_IGNORED', message: `${path} is ignored, as the engine ignores it: ${e.detail}`, path, line: e.line, column: e.column };
}

/**
 * Read and index every shader script and material file of `fs`. Broken files become warnings (SCRIPT_IGNORED), and
 * so do files over `maxScriptBytes` (SCRIPT_TOO_LARGE, not read; default the process's, 8 MiB).
 */
export async function loadMaterialLibrary(fs: FileSystem, options: { signal?: AbortSignal; maxScriptBytes?: number } = {}): Promise<MaterialLibrary> {
  const read = (f: VfsFile) => readScriptFile(f, { maxBytes: options.maxScriptBytes, signal: options.signal });
  const lib: MaterialLibrary = { shaders: new Map(), materials: new Map(), files: [], doom3: false, warnings: [] };

  const shaderFiles = await direct(fs, 'scripts', ['.shader']);
  // Reverse listing order, first definition wins (ScanAndLoadShaderFiles + FindShaderInShaderText).
  for (const f of [...shaderFiles].reverse()) {
    let script;
    try {
      script = parseShaderScript(await read(f));
    } catch (e) {
      lib.warnings.push(ignored(f.path, e));
      continue;
    }
    lib.files.push(f.path);
    lib.warnings.push(...script.warnings.map(fromParse(f.path)));
    for (const s of script.shaders) {
      const had = lib.shaders.get(s.key);
      if (had) {
        lib.warnings.push({ code: 'SHADER_REDEFINED', message: `shader '${shortName(s.name)}' is also defined in ${had.path} (line ${had.line}), which the engine uses`, path: f.path, line: s.line, column: s.column });
      } else lib.shaders.set(s.key, { ...s, path: f.path });
    }
  }

  const doom3Files = await direct(fs, 'materials', ['.mtr']);
  lib.doom3 = doom3Files.length > 0;
  const mtrFiles = [...doom3Files, ...(await direct(fs, 'scripts', ['.mtr']))];
  for (const f of mtrFiles) {
    let file;
    try {
      file = parseMtr(await read(f));
    } catch (e) {
      lib.warnings.push(ignored(f.path, e));
      continue;
    }
    lib.files.push(f.path);
    lib.warnings.push(...file.warnings.map(fromParse(f.path)));
    for (const m of file.materials) {
      const had = lib.materials.get(m.key);
      if (had) {
        lib.warnings.push({ code: 'MATERIAL_REDEFINED', message: `material '${shortName(m.name)}' was already defined in ${had.path} (line ${had.line}), which the engine keeps`, path: f.path, line: m.line, column: m.column });
      } else lib.materials.set(m.key, { ...m, path: f.path });
    }
  }
  return lib;
}
