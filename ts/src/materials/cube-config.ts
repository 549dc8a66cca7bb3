/**
 * Cube 2 / Sauerbraten / Red Eclipse model configs (`md5.cfg` beside an md5mesh): the `md5skin` and `md5bumpmap`
 * lines that give each mesh its textures, where the md5mesh itself leaves `shader ""` empty.
 *
 * Engine: Sauerbraten src/engine/skelmodel.h / md5.h. `md5skin <mesh> <tex> [<masks> [<envmapmax> [<envmapmin>]]]`
 * sets a mesh's diffuse texture and its masks (R = specular, G = glow, B = envmap), `md5bumpmap <mesh> <normalmap>`
 * its normal map; `<mesh>` is a mesh name or `*` for all (`loopmeshes`: `!strcmp(meshname, "*") ||
 * !strcmp(m.name, meshname)`). Paths are relative to the config's folder (`makerelpath(dir, name)`); leading `<cmd>`
 * groups are texture-loading commands, dropped from the path: `<dds>` is kept as a flag (`…Dds`), since with it
 * Tesseract loads `<path minus its last four characters>.dds` first (names.ts `tesseractDdsName`). Mesh names are not in the md5mesh's
 * syntax: the loader takes them from a `// meshes: NAME` comment line inside each `mesh {` block (md5.h
 * `md5mesh::load`), which {@link md5MeshNamesFromText} reads the same way.
 *
 * Other lines (md5load, md5anim, md5tag, mdlscale, exec …) are ignored. Never throws.
 */
import { latin1, ScriptLexer, type ScriptToken } from '../text/script-lexer.js';
import { hasDdsCommand } from './names.js';

export interface CubeSkin {
  mesh: string;
  /** Paths as written, `<…>` prefixes removed, relative to the config's folder. */
  diffuse: string;
  masks: string | null;
  /** The `<dds>` command on the diffuse / masks name: the .dds beside it is tried first. */
  diffuseDds: boolean;
  masksDds: boolean;
  line: number;
  column: number;
}

export interface CubeBumpmap {
  mesh: string;
  normal: string;
  normalDds: boolean;
  line: number;
  column: number;
}

export interface CubeModelConfig {
  skins: CubeSkin[];
  bumpmaps: CubeBumpmap[];
}

/** `<dds>skin.jpg` → `skin.jpg` (every leading `<…>` group). */
export function stripTextureCommands(name: string): string {
  let s = name;
  while (s.startsWith('<')) {
    const end = s.indexOf('>');
    if (end < 0) break;
    s = s.slice(end + 1);
  }
  return s;
}

export function parseCubeModelConfig(input: Uint8Array | string): CubeModelConfig {
  const lex = new ScriptLexer(typeof input === 'string' ? input : latin1(input), 'quake3');
  const skins: CubeSkin[] = [];
  const bumpmaps: CubeBumpmap[] = [];
  for (let t = lex.next(); t; t = lex.next()) {
    const rest: ScriptToken[] = lex.restOfLine();
    const kw = t.text.toLowerCase();
    if (kw === 'md5skin' && rest.length >= 2) {
      const masks = rest[2] ? stripTextureCommands(rest[2].text) : '';
      skins.push({
        mesh: rest[0].text,
        diffuse: stripTextureCommands(rest[1].text),
        masks: masks || null,
        diffuseDds: hasDdsCommand(rest[1].text),
        masksDds: !!masks && hasDdsCommand(rest[2].text),
        line: t.line,
        column: t.column,
      });
    } else if (kw === 'md5bumpmap' && rest.length >= 2) {
      bumpmaps.push({ mesh: rest[0].text, normal: stripTextureCommands(rest[1].text), normalDds: hasDdsCommand(rest[1].text), line: t.line, column: t.column });
    }
  }
  return { skins, bumpmaps };
}

/**
 * Mesh names of an md5mesh as Sauerbraten reads them: per line containing `mesh {`, the text after `// meshes:`
 * on a later line of that block (up to a line starting with `}`), trimmed; '' for a block without one. One entry
 * per `mesh {` line, in file order — the order of Md5Mesh.meshes for a well-formed file.
 */
export function md5MeshNamesFromText(input: Uint8Array | string): string[] {
  const text = typeof input === 'string' ? input : latin1(input);
  const names: string[] = [];
  let inMesh = false;
  for (const raw of text.split('\n')) {
    if (!inMesh) {
      if (raw.includes('mesh {')) {
        inMesh = true;
        names.push('');
      }
      continue;
    }
    if (raw.startsWith('}')) {
      inMesh = false;
      continue;
    }
    const at = raw.indexOf('// meshes:');
    if (at >= 0) names[names.length - 1] = raw.slice(at + '// meshes:'.length).trim();
  }
  return names;
}
