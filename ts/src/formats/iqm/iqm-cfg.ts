/**
 * Tesseract / Red Eclipse model configs (`iqm.cfg` in a model's folder), read as Tesseract's model loader runs them
 * (src/engine/rendermodel.cpp `loadmodel` executes `<model>/iqm.cfg`; the commands are skelmodel.h's `skelcommands`
 * and animmodel.h's `modelcommands`, registered with the `iqm` prefix by iqm.h):
 *
 * - `iqmload FILE [SKELETON]` — the mesh, FILE relative to the model's folder (`MDL::dir`);
 * - `iqmdir DIR` — sets that folder (a path from the game's root: `iqmdir "actors/player"`);
 * - `exec PATH` — runs another config (a path from the game's root), as Red Eclipse's players run `player.cfg`;
 * - `iqmanim NAMES FILE [SPEED [PRIORITY [STARTOFFSET [ENDOFFSET]]]]` — `setanim`: each `|`-separated name of NAMES
 *   plays FILE (`FILE:ANIM` picks one anim of it, else its first), at SPEED frames per second, frames cut by the
 *   offsets; `iqmanimpart` starts the next animation part (the anims after it play on the upper body);
 * - `iqmskin MESH TEX [MASKS …]`, `iqmbumpmap MESH NORMAL` — textures (`*` for every mesh; a leading `<dds>`-style
 *   command is a loading hint and is dropped), relative to the model's folder;
 * - `iqmtag JOINT TAG [TX TY TZ [RX RY RZ]]`, `mdllod NAME DISTANCE` — tags and levels of detail, recorded.
 *
 * Cubescript control flow is followed as far as the shipped configs need: `if` with a number, `strcmp (mdlname)
 * "…"`, `||`, `&&`, `!` (the model's name is its folder); `loop VAR N [BODY]` runs its body once and marks what it
 * names as dynamic (names like `(at $W_NAMES $i)` come from game variables this reader does not have). Everything
 * else (`iqmpitch`, `mdlscale`, `local`, `cases` …) is skipped.
 *
 * Paths: Tesseract resolves them from the game's data root; a FileSystem may be mounted below it (the actors folder
 * itself), so a root path is looked up as written, then with its leading folders dropped one at a time
 * (`actors/player/player.cfg` → `player/player.cfg`). Lookups ignore case (the FileSystem's). Never throws: what is
 * missing or not understood is a warning.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { FileSystem } from '../../vfs/file-system.js';
import { cubeCommands, type CubeCommand, type CubeWord } from './cubescript.js';

export interface IqmCfgAnim {
  /** The clip names (`|`-separated in the config). */
  names: string[];
  /** The animation file's path in the FileSystem (as resolved; the joined path when no file was found). */
  file: string;
  /** Whether the FileSystem holds `file`. */
  found: boolean;
  /** `FILE:ANIM`'s ANIM, or null for the file's first anim. */
  anim: string | null;
  /** Frames per second as written; 0 when not given (the engine then plays 10 frames a second). */
  speed: number;
  priority: number;
  startOffset: number;
  endOffset: number;
  /** The animation part (0, then one more after each `iqmanimpart`). */
  part: number;
  /** Named through game variables (inside a `loop`, or an expression): `names` hold the raw text. */
  dynamic: boolean;
  /** The config that said it, and where. */
  cfg: string;
  line: number;
}

export interface IqmCfgSkin {
  mesh: string;
  /** Relative to the model's folder, `<…>` commands dropped; the FileSystem's path when it holds the file. */
  diffuse: string;
  masks: string | null;
  cfg: string;
  line: number;
}

export interface IqmCfgBumpmap {
  mesh: string;
  normal: string;
  cfg: string;
  line: number;
}

export interface IqmCfgTag {
  joint: string;
  tag: string;
  translate: [number, number, number];
  rotate: [number, number, number];
}

export interface IqmConfig {
  /** Every config read, the first one first. */
  cfgs: string[];
  /** `iqmload` files (resolved paths) with their skeleton name. */
  loads: { file: string; skeleton: string | null }[];
  anims: IqmCfgAnim[];
  skins: IqmCfgSkin[];
  bumpmaps: IqmCfgBumpmap[];
  tags: IqmCfgTag[];
  lods: { model: string; distance: number }[];
  warnings: ParseWarning[];
}

/** `<dds>skin.png` → `skin.png` (every leading `<…>` group: Tesseract's texture-loading commands). */
export function stripTextureCommand(name: string): string {
  let s = name;
  while (s.startsWith('<')) {
    const close = s.indexOf('>');
    if (close < 0) break;
    s = s.slice(close + 1);
  }
  return s;
}

/** `a/b/../c/./d` → `a/c/d` (Tesseract's `path()`); an absolute path (a FileSystem over the disk's root) stays so. */
export function normalisePath(p: string): string {
  const s = p.replace(/\\/g, '/');
  const out: string[] = [];
  for (const part of s.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return (s.startsWith('/') ? '/' : '') + out.join('/');
}

const folderOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const join = (dir: string, name: string) => normalisePath(dir ? `${dir}/${name}` : name);

/** Whether two model names are the same model, one perhaps written from a root above the other's. */
function sameModel(a: string, b: string): boolean {
  const x = normalisePath(a).toLowerCase(), y = normalisePath(b).toLowerCase();
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

const MAX_EXEC_DEPTH = 16;

/** Reads `cfgPath` (and what it `exec`s) from `fs`. */
export async function readIqmConfig(fs: FileSystem, cfgPath: string): Promise<IqmConfig> {
  const config: IqmConfig = { cfgs: [], loads: [], anims: [], skins: [], bumpmaps: [], tags: [], lods: [], warnings: [] };
  const modelName = folderOf(normalisePath(cfgPath));
  let dir = modelName;
  let part = 0;
  const warn = (code: string, message: string, cfg: string, line: number) => config.warnings.push({ code, message: `${cfg}:${line}: ${message}`, offset: 0, line });

  /**
   * A path from the game's root (or the model's folder), as the FileSystem holds it: as written, then with its leading
   * folders dropped one at a time, each from the FileSystem's root and from every folder above the model (the game's
   * root may lie anywhere above it: a FileSystem over the disk, or a copy of `actors/` under another name).
   */
  const bases = (() => {
    const out: string[] = [];
    for (let d = modelName; d && d !== '/'; d = folderOf(d)) out.push(d);
    return [...out, ''];
  })();
  const resolve = async (p: string): Promise<string | null> => {
    const n = normalisePath(p);
    if (n.startsWith('/')) return (await fs.file(n))?.path ?? null;
    const parts = n.split('/');
    for (let k = 0; k < parts.length; k++) {
      const rest = parts.slice(k).join('/');
      for (const base of k === 0 && n.startsWith(modelName) ? [''] : bases) {
        const f = await fs.file(base ? `${base}/${rest}` : rest);
        if (f) return f.path;
      }
    }
    return null;
  };
  const fileOf = async (name: string, cfg: string, line: number): Promise<{ file: string; found: boolean }> => {
    const joined = join(dir, name);
    const found = await resolve(joined);
    if (found === null) warn('IQM_CFG_MISSING', `${JSON.stringify(name)} (${joined}) is not in the file system`, cfg, line);
    return { file: found ?? joined, found: found !== null };
  };
  /** A texture relative to the model's folder, as the FileSystem holds it when it does (the resolver tries other extensions). */
  const imageOf = async (name: string): Promise<string> => {
    const joined = join(dir, stripTextureCommand(name));
    return (await resolve(joined)) ?? joined;
  };
  const num = (w: CubeWord | undefined, fallback = 0) => {
    if (!w) return fallback;
    const v = Number(w.text);
    return Number.isFinite(v) ? v : fallback;
  };

  /** Cubescript truth of a condition word (null when this reader cannot tell). */
  const truth = (w: CubeWord): boolean | null => {
    if (w.kind === 'word' || w.kind === 'string') {
      const v = Number(w.text);
      return Number.isFinite(v) ? v !== 0 : w.text !== '';
    }
    const [cmd] = cubeCommands(w.text);
    if (!cmd) return false;
    const [op, ...args] = cmd.words;
    const value = (a: CubeWord): string | null => {
      if (a.kind === 'expr') return a.text.trim() === 'mdlname' ? modelName : null;
      return a.kind === 'block' ? null : a.text;
    };
    switch (op.text) {
      case '||':
      case '&&': {
        const each = args.map(truth);
        if (each.some((t) => t === null)) return null;
        return op.text === '||' ? each.some(Boolean) : each.every(Boolean);
      }
      case '!': {
        const t = args[0] ? truth(args[0]) : true;
        return t === null ? null : !t;
      }
      case 'strcmp': {
        const [a, b] = args.map(value);
        if (a === null || b === null || a === undefined || b === undefined) return null;
        // the model's name is compared by its folder, whatever root the FileSystem has
        return args[0].kind === 'expr' || args[1]?.kind === 'expr' ? sameModel(a, b) : a === b;
      }
      default:
        return null;
    }
  };

  const run = async (commands: CubeCommand[], cfg: string, depth: number, dynamic: boolean): Promise<void> => {
    for (const c of commands) {
      const [head, ...args] = c.words;
      const kw = head.kind === 'word' || head.kind === 'string' ? head.text.toLowerCase() : '';
      switch (kw) {
        case 'exec': {
          if (!args[0]) break;
          const target = await resolve(args[0].text);
          if (target === null) warn('IQM_CFG_MISSING', `exec ${JSON.stringify(args[0].text)}: not in the file system`, cfg, c.line);
          else if (depth >= MAX_EXEC_DEPTH || config.cfgs.includes(target)) warn('IQM_CFG_EXEC', `exec ${JSON.stringify(args[0].text)} skipped (already read, or ${MAX_EXEC_DEPTH} configs deep)`, cfg, c.line);
          else await runFile(target, depth + 1);
          break;
        }
        case 'iqmdir':
          if (args[0]) dir = normalisePath(args[0].text);
          break;
        case 'iqmload':
          if (args[0]) config.loads.push({ file: (await fileOf(args[0].text, cfg, c.line)).file, skeleton: args[1]?.text ?? null });
          break;
        case 'iqmanim': {
          if (args.length < 2) break;
          const nameWord = args[0];
          let file = args[1].text;
          let anim: string | null = null;
          const colon = file.lastIndexOf(':');
          if (colon > file.lastIndexOf('/') && colon > 1) {
            anim = file.slice(colon + 1);
            file = file.slice(0, colon);
          }
          const named = nameWord.kind === 'expr' ? `(${nameWord.text})` : nameWord.text;
          config.anims.push({
            names: nameWord.kind === 'expr' ? [named] : named.split('|'),
            ...(await fileOf(file, cfg, c.line)),
            anim,
            speed: num(args[2]),
            priority: num(args[3]),
            startOffset: num(args[4]),
            endOffset: num(args[5]),
            part,
            dynamic: dynamic || nameWord.kind === 'expr',
            cfg,
            line: c.line,
          });
          break;
        }
        case 'iqmanimpart':
          part++;
          break;
        case 'iqmskin':
          if (args.length >= 2) {
            const masks = args[2] ? stripTextureCommand(args[2].text) : '';
            config.skins.push({ mesh: args[0].text, diffuse: await imageOf(args[1].text), masks: masks ? await imageOf(masks) : null, cfg, line: c.line });
          }
          break;
        case 'iqmbumpmap':
          if (args.length >= 2) config.bumpmaps.push({ mesh: args[0].text, normal: await imageOf(args[1].text), cfg, line: c.line });
          break;
        case 'iqmtag':
          if (args.length >= 2) {
            config.tags.push({ joint: args[0].text, tag: args[1].text, translate: [num(args[2]), num(args[3]), num(args[4])], rotate: [num(args[5]), num(args[6]), num(args[7])] });
          }
          break;
        case 'mdllod':
          if (args[0]) config.lods.push({ model: join(modelName, args[0].text), distance: num(args[1]) });
          break;
        case 'loop':
          // loop VAR N [BODY]: the body once; what it names comes from game variables
          if (args[2]?.kind === 'block') await run(cubeCommands(args[2].text, args[2].line), cfg, depth, true);
          break;
        case 'if': {
          if (!args[0]) break;
          const t = truth(args[0]);
          if (t === null) warn('IQM_CFG_CONDITION', `cannot evaluate ${JSON.stringify(args[0].text)}: its first branch is read`, cfg, c.line);
          const branch = t === false ? args[2] : args[1];
          if (branch?.kind === 'block') await run(cubeCommands(branch.text, branch.line), cfg, depth, dynamic);
          break;
        }
        default:
          break;
      }
    }
  };
  const runFile = async (path: string, depth: number): Promise<void> => {
    const file = await fs.file(path);
    if (!file) {
      warn('IQM_CFG_MISSING', `${path} is not in the file system`, path, 0);
      return;
    }
    config.cfgs.push(file.path);
    const bytes = await file.bytes();
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
    await run(cubeCommands(text), file.path, depth, false);
  };
  await runFile(cfgPath, 0);
  return config;
}

/** The animation files a config names that the FileSystem holds, each once, in the order the config names them. */
export function configAnimationFiles(config: IqmConfig): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const a of config.anims) {
    if (!a.found) continue;
    const key = a.file.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(a.file);
    }
  }
  return out;
}

/** One clip a config names: a name of an `iqmanim` line with its file, anim, rate and frame cuts. */
export interface IqmCfgClip {
  name: string;
  file: string;
  /** The anim of the file by name (`FILE:ANIM`), or null for its first. */
  anim: string | null;
  /** Frames per second: the line's speed, else 10 (Tesseract's default, 100 ms a frame). */
  fps: number;
  /** Tesseract's offsets: a positive start skips frames (at most count − 1), a negative one counts from the end. */
  startOffset: number;
  /** A positive end keeps at most that many frames, a negative one drops that many (at least one stays). */
  endOffset: number;
  part: number;
  /** 0 for the first line of this name and part, 1 for the next …: variants the engine picks between. */
  variant: number;
  dynamic: boolean;
}

/**
 * Every clip name of the config's `iqmanim` lines whose file the FileSystem holds, in order. Several lines of one
 * name and part are variants, as Tesseract keeps them (animmodel.h `part::setanim` adds an animspec per line;
 * `getanimspec` picks one by the entity's seed and start time).
 */
export function configClips(config: IqmConfig): IqmCfgClip[] {
  const out: IqmCfgClip[] = [];
  for (const a of config.anims) {
    if (!a.found) continue;
    for (const name of a.names) {
      const variant = out.filter((c) => c.name === name && c.part === a.part).length;
      out.push({ name, file: a.file, anim: a.anim, fps: a.speed > 0 ? a.speed : 10, startOffset: a.startOffset, endOffset: a.endOffset, part: a.part, variant, dynamic: a.dynamic });
    }
  }
  return out;
}

export { clipFrames } from './clips.js';
