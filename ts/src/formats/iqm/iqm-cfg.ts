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
 * (`actors/player/player.cfg` → `player/player.cfg`). Lookups ignore case (the FileSystem's). Every lookup stays
 * under the game's root (`IqmConfigOptions.root`): a path out of it is UNSAFE_PATH, a warning (docs/security.md,
 * "An IQM's side files"). What is missing or not understood is a warning; `readIqmConfig` says what it throws.
 */
import { ErrorCode, ModelParseError, readingFile, type ParseWarning } from '../../base/errors.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { latin1 } from '../../text/script-lexer.js';
import { readScriptFile } from '../../vfs/bounded-read.js';
import type { FileSystem, VfsFile } from '../../vfs/file-system.js';
import { defaultModelRoot, isUnderRoot, scriptPathProblem } from '../../vfs/safe-path.js';
import { cubeScript, type CubeCommand, type CubeScript, type CubeWord } from './cubescript.js';

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
/**
 * Tesseract's longest name (tools.h `MAXSTRLEN`: its `string` buffers, so `defformatstring(filename, "%s/%s", dir,
 * name)` in setanim cuts a longer one): a name past it is not looked up (it is a megabyte of folders to walk).
 */
const MAXSTRLEN = 260;
/** V8's longest string (2²⁹ − 24 characters on 64-bit platforms). */
const MAX_TEXT = 2 ** 29 - 24;
/** Warnings kept per config; the rest are counted in one (a warning per line of a huge config is memory). */
const MAX_WARNINGS = 100;

export interface IqmConfigOptions {
  /**
   * The game's root in `fs`: nothing above it is read, and a path a config names that leads out of it (`..` past
   * it, an absolute path, a drive, a NUL) is refused, UNSAFE_PATH. Default: the file system's root for a relative
   * config path, else the config's own folder (`defaultModelRoot`).
   */
  root?: string;
  /** The largest config read (default: the process's `maxScriptBytes`). */
  maxBytes?: number;
  signal?: AbortSignal;
}

/**
 * Reads `cfgPath` (and what it `exec`s) from `fs`, confined to `options.root`.
 *
 * Contract: what the text says never throws — a missing file, a path out of the root, a condition this reader cannot
 * tell, are warnings (at most 100, then one counting the rest); any nesting of blocks, expressions and `exec`s runs
 * without recursion, in time linear in the text. It throws a ModelParseError naming the config only when a config
 * cannot be read: RESOURCE_LIMIT when one is over `maxScriptBytes` (checked before it is read), READ_FAILED when the
 * file system fails to read one it lists; and RESOURCE_LIMIT `maxAnimationClips` when its `iqmanim` lines name more
 * clips than that.
 */
export async function readIqmConfig(fs: FileSystem, cfgPath: string, options: IqmConfigOptions = {}): Promise<IqmConfig> {
  const config: IqmConfig = { cfgs: [], loads: [], anims: [], skins: [], bumpmaps: [], tags: [], lods: [], warnings: [] };
  const modelName = folderOf(normalisePath(cfgPath));
  const root = options.root ?? defaultModelRoot(cfgPath);
  const maxClips = resourceLimits().maxAnimationClips;
  let clipNames = 0;
  let dir = modelName;
  let part = 0;
  let dropped = 0;
  const warn = (code: string, message: string, cfg: string, line: number) => {
    if (config.warnings.length < MAX_WARNINGS) config.warnings.push({ code, message: `${cfg}:${line}: ${message}`, offset: 0, line });
    else dropped++;
  };

  /**
   * A path from the game's root (or the model's folder), as the FileSystem holds it: as written, then with its leading
   * folders dropped one at a time, each from the model's folder and every folder above it up to the root (the
   * game's root may lie anywhere above the model: a copy of `actors/` under another name). Never a path out of the root.
   */
  const bases = (() => {
    const out: string[] = [];
    for (let d = modelName; d && d !== '/' && isUnderRoot(root, d); d = folderOf(d)) out.push(d);
    if (isUnderRoot(root, '')) out.push('');
    return out;
  })();
  const resolved = new Map<string, string | null>();
  const resolve = async (n: string): Promise<string | null> => {
    let found = resolved.get(n);
    if (found !== undefined) return found;
    found = null;
    if (n.startsWith('/')) found = isUnderRoot(root, n) ? ((await fs.file(n))?.path ?? null) : null;
    else {
      const parts = n.split('/');
      search: for (let k = 0; k < parts.length; k++) {
        const rest = parts.slice(k).join('/');
        for (const base of k === 0 && n.startsWith(modelName) ? [''] : bases) {
          const at = base ? `${base}/${rest}` : rest;
          if (!isUnderRoot(root, at)) continue;
          const f = await fs.file(at);
          if (f) {
            found = f.path;
            break search;
          }
        }
      }
    }
    resolved.set(n, found);
    return found;
  };
  /**
   * Whether `name`, looked up as `joined` (normalised), leads out of the root: an absolute path out of it; a `..`
   * that climbs past it (from the model's folder, or from the root for `exec`); or a path under no folder it is
   * looked up from (the model's folder, the folders above it, the root).
   */
  const outOfRoot = (name: string, joined: string, fromRoot: boolean) => {
    if (joined.startsWith('/')) return !isUnderRoot(root, joined);
    if (joined === '..' || joined.startsWith('../')) return true;
    const climbs = /(^|[\\/])\.\.([\\/]|$)/.test(name);
    if (climbs && !fromRoot && !isUnderRoot(root, joined)) return true;
    return !isUnderRoot(root, joined) && !bases.some((b) => isUnderRoot(root, b ? `${b}/${joined}` : joined));
  };
  /** Whether `name` (`joined`: as it is looked up) is not followed: UNSAFE_PATH, or a name past MAXSTRLEN; warned. */
  const refused = (what: string, name: string, joined: string, cfg: string, line: number, fromRoot = false): boolean => {
    const problem = scriptPathProblem(name) ?? (outOfRoot(name, joined, fromRoot) ? `leads out of the game's root (${root || 'the file system\'s root'})` : null);
    if (problem) {
      warn(ErrorCode.UnsafePath, `${what} ${JSON.stringify(name.slice(0, 64))}: ${problem}; not read`, cfg, line);
      return true;
    }
    if (name.length > MAXSTRLEN) {
      warn('IQM_CFG_MISSING', `${what}: a name of ${name.length} characters (Tesseract's MAXSTRLEN is ${MAXSTRLEN}); not looked up`, cfg, line);
      return true;
    }
    return false;
  };
  const fileOf = async (what: string, name: string, cfg: string, line: number): Promise<{ file: string; found: boolean }> => {
    const joined = join(dir, name);
    if (refused(what, name, joined, cfg, line)) return { file: joined, found: false };
    const found = await resolve(joined);
    if (found === null) warn('IQM_CFG_MISSING', `${JSON.stringify(name)} (${joined}) is not in the file system`, cfg, line);
    return { file: found ?? joined, found: found !== null };
  };
  /** A texture relative to the model's folder, as the FileSystem holds it when it does (the resolver tries other extensions). */
  const imageOf = async (what: string, name: string, cfg: string, line: number): Promise<string | null> => {
    const bare = stripTextureCommand(name);
    const joined = join(dir, bare);
    if (refused(what, bare, joined, cfg, line)) return null;
    return (await resolve(joined)) ?? joined;
  };
  const num = (w: CubeWord | undefined, fallback = 0) => {
    if (!w) return fallback;
    const v = Number(w.text);
    return Number.isFinite(v) ? v : fallback;
  };

  /** A word's truth as Cubescript's: a number not 0, else a string not empty. */
  const leaf = (text: string): boolean => {
    const v = Number(text);
    return Number.isFinite(v) ? v !== 0 : text !== '';
  };
  interface Pending {
    op: string;
    args: CubeWord[];
    results: (boolean | null)[];
  }
  /**
   * Cubescript truth of a condition word (null when this reader cannot tell): `||`, `&&`, `!`, `strcmp (mdlname)
   * "…"`. Evaluated with a stack of its own, so `(! (! (! …)))` 20,000 deep is a loop, not 20,000 calls.
   */
  const truth = (w: CubeWord, script: CubeScript): boolean | null => {
    const open = (x: CubeWord): Pending | boolean | null => {
      if (x.kind === 'word' || x.kind === 'string') return leaf(x.text);
      const cmd = script.cursor(x).next();
      if (!cmd) return false;
      const [op, ...args] = cmd.words;
      switch (op.text) {
        case '||':
        case '&&':
          return { op: op.text, args, results: [] };
        case '!':
          return args[0] ? { op: '!', args: [args[0]], results: [] } : false;
        case 'strcmp': {
          const value = (a: CubeWord | undefined): string | null | undefined => {
            if (!a) return undefined;
            if (a.kind === 'expr') return a.text.trim() === 'mdlname' ? modelName : null;
            return a.kind === 'block' ? null : a.text;
          };
          const a = value(args[0]);
          const b = value(args[1]);
          if (a === null || b === null || a === undefined || b === undefined) return null;
          // the model's name is compared by its folder, whatever root the FileSystem has
          return args[0].kind === 'expr' || args[1]?.kind === 'expr' ? sameModel(a, b) : a === b;
        }
        default:
          return null;
      }
    };
    const done = (p: Pending): boolean | null => {
      if (p.results.some((t) => t === null)) return null;
      if (p.op === '!') return !p.results[0];
      return p.op === '||' ? p.results.some(Boolean) : p.results.every(Boolean);
    };
    const first = open(w);
    if (first === null || typeof first === 'boolean') return first;
    const stack: Pending[] = [first];
    for (;;) {
      const top = stack[stack.length - 1];
      if (top.results.length < top.args.length) {
        const v = open(top.args[top.results.length]);
        if (v === null || typeof v === 'boolean') top.results.push(v);
        else stack.push(v);
        continue;
      }
      stack.pop();
      const r = done(top);
      if (!stack.length) return r;
      stack[stack.length - 1].results.push(r);
    }
  };

  /** A block or file being run: its commands one at a time, where they come from, and how deep in `exec`s. */
  interface Frame {
    commands: { next(): CubeCommand | null };
    script: CubeScript;
    cfg: string;
    depth: number;
    dynamic: boolean;
  }
  const stack: Frame[] = [];
  const read = new Set<string>();
  const openFile = async (file: VfsFile, depth: number): Promise<void> => {
    config.cfgs.push(file.path);
    read.add(file.path.toLowerCase());
    const bytes = await readingFile(file.origin, async () => {
      try {
        return await readScriptFile(file, { maxBytes: options.maxBytes, signal: options.signal });
      } catch (e) {
        if (e instanceof ModelParseError || (e as Error)?.name === 'AbortError') throw e;
        throw new ModelParseError(ErrorCode.ReadFailed, `cannot read it: ${(e as Error)?.message ?? String(e)}`, { offset: 0 });
      }
    });
    // a config is run as one string: past V8's longest (maxScriptBytes raised that far) it is refused, typed
    if (bytes.length > MAX_TEXT) throw new ModelParseError(ErrorCode.ResourceLimit, `${bytes.length} bytes: more than a config can be read as text (${MAX_TEXT} characters, the longest string the runtime makes)`, { offset: 0 }).inFile(file.origin);
    const script = cubeScript(latin1(bytes));
    stack.push({ commands: script.cursor(), script, cfg: file.path, depth, dynamic: false });
  };

  const top = isUnderRoot(root, cfgPath) ? await fs.file(cfgPath) : null;
  if (!top) {
    warn('IQM_CFG_MISSING', `${cfgPath} is not in the file system`, cfgPath, 0);
    return config;
  }
  await openFile(top, 0);
  while (stack.length) {
    const frame = stack[stack.length - 1];
    const c = frame.commands.next();
    if (!c) {
      stack.pop();
      continue;
    }
    const { cfg, depth, dynamic, script } = frame;
    const [head, ...args] = c.words;
    const kw = head.kind === 'word' || head.kind === 'string' ? head.text.toLowerCase() : '';
    switch (kw) {
      case 'exec': {
        if (!args[0]) break;
        const name = args[0].text;
        const joined = normalisePath(name);
        if (refused('exec', name, joined, cfg, c.line, true)) break;
        const target = await resolve(joined);
        if (target === null) warn('IQM_CFG_MISSING', `exec ${JSON.stringify(name)}: not in the file system`, cfg, c.line);
        else if (depth >= MAX_EXEC_DEPTH || read.has(target.toLowerCase())) warn('IQM_CFG_EXEC', `exec ${JSON.stringify(name)} skipped (already read, or ${MAX_EXEC_DEPTH} configs deep)`, cfg, c.line);
        else {
          const f = await fs.file(target);
          if (f) await openFile(f, depth + 1);
        }
        break;
      }
      case 'iqmdir':
        if (args[0]) {
          const problem = scriptPathProblem(args[0].text);
          if (problem) warn(ErrorCode.UnsafePath, `iqmdir ${JSON.stringify(args[0].text.slice(0, 64))}: ${problem}; not used`, cfg, c.line);
          else if (args[0].text.length > MAXSTRLEN) warn('IQM_CFG_MISSING', `iqmdir: a name of ${args[0].text.length} characters (Tesseract's MAXSTRLEN is ${MAXSTRLEN}); not used`, cfg, c.line);
          else dir = normalisePath(args[0].text);
        }
        break;
      case 'iqmload':
        if (args[0]) config.loads.push({ file: (await fileOf('iqmload', args[0].text, cfg, c.line)).file, skeleton: args[1]?.text ?? null });
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
        const names = nameWord.kind === 'expr' ? [named] : named.split('|');
        const where = await fileOf('iqmanim', file, cfg, c.line);
        if (where.found) {
          // bounded before the clips are made: each is an animation of every joint in every door
          clipNames += names.length;
          if (clipNames > maxClips) throw overLimit(`iqmanim names more than ${maxClips} clips (line ${c.line})`, 'maxAnimationClips', maxClips).inFile(cfg);
        }
        config.anims.push({
          names,
          ...where,
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
          const diffuse = await imageOf('iqmskin', args[1].text, cfg, c.line);
          if (diffuse !== null) config.skins.push({ mesh: args[0].text, diffuse, masks: masks ? await imageOf('iqmskin', masks, cfg, c.line) : null, cfg, line: c.line });
        }
        break;
      case 'iqmbumpmap':
        if (args.length >= 2) {
          const normal = await imageOf('iqmbumpmap', args[1].text, cfg, c.line);
          if (normal !== null) config.bumpmaps.push({ mesh: args[0].text, normal, cfg, line: c.line });
        }
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
        if (args[2]?.kind === 'block') stack.push({ commands: script.cursor(args[2]), script, cfg, depth, dynamic: true });
        break;
      case 'if': {
        if (!args[0]) break;
        const t = truth(args[0], script);
        if (t === null) warn('IQM_CFG_CONDITION', `cannot evaluate ${JSON.stringify(args[0].text.slice(0, 64))}: its first branch is read`, cfg, c.line);
        const branch = t === false ? args[2] : args[1];
        if (branch?.kind === 'block') stack.push({ commands: script.cursor(branch), script, cfg, depth, dynamic });
        break;
      }
      default:
        break;
    }
  }
  if (dropped) config.warnings.push({ code: 'IQM_CFG_WARNINGS', message: `${cfgPath}: ${dropped} more warning(s) not listed`, offset: 0 });
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
  const seen = new Map<string, number>(); // lines so far per name and part: one count, not a scan of every clip per clip
  for (const a of config.anims) {
    if (!a.found) continue;
    for (const name of a.names) {
      const key = `${a.part}\u0000${name}`;
      const variant = seen.get(key) ?? 0;
      seen.set(key, variant + 1);
      out.push({ name, file: a.file, anim: a.anim, fps: a.speed > 0 ? a.speed : 10, startOffset: a.startOffset, endOffset: a.endOffset, part: a.part, variant, dynamic: a.dynamic });
    }
  }
  return out;
}

