/**
 * Name rules of the engines: extensions, shader keys, and the file names an image name is looked up under.
 * Every rule cites the engine function it copies.
 */

/**
 * The extension of `name` without its dot, or '' — only a dot after the last '/' counts (ioquake3
 * `COM_GetExtension`, q_shared.c): `models/a.b/c` has none, `computer.blend` has `blend`.
 */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 && dot > name.lastIndexOf('/') ? name.slice(dot + 1) : '';
}

/** `name` without its extension (ioquake3 `COM_StripExtension`: same dot rule as {@link extensionOf}). */
export function stripExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 && dot > name.lastIndexOf('/') ? name.slice(0, dot) : name;
}

/**
 * The key a Quake 3 shader is found under: R_FindShader strips the extension (`COM_StripExtension`) and
 * FindShaderInShaderText compares case-insensitively (`Q_stricmp`). A leading '/' is kept: ioquake3 looks up
 * `/models/x` in the shader text as written (only the file system strips it), so such a name finds no script
 * definition and falls back to the image.
 */
export function shaderKey(name: string): string {
  return stripExtension(name).toLowerCase();
}

/**
 * The key a Doom 3 declaration is found under (framework/DeclManager.cpp `MakeNameCanonical`): lower case, '\' as
 * '/', cut at the last '.' wherever it is.
 */
export function declKey(name: string): string {
  const s = name.replace(/\\/g, '/').toLowerCase();
  const dot = s.lastIndexOf('.');
  return dot >= 0 ? s.slice(0, dot) : s;
}

/**
 * ioquake3's image loaders in order of preference (renderergl1/tr_image.c `imageLoaders`): R_LoadImage tries the
 * name's own extension first when it has a loader, then the name without it with every other loader in this
 * order; a name with no extension, or one no loader knows (`computer.blend`), gets each extension appended.
 */
export const QUAKE3_IMAGE_EXTENSIONS: readonly string[] = ['tga', 'jpg', 'jpeg', 'png', 'pcx', 'bmp'];

/** The file names ioquake3's R_LoadImage tries for `name`, in order (`extensions` defaults to the ioquake3 list). */
export function quake3ImageCandidates(name: string, extensions: readonly string[] = QUAKE3_IMAGE_EXTENSIONS): string[] {
  const ext = extensionOf(name).toLowerCase();
  const own = ext ? extensions.indexOf(ext) : -1;
  if (own < 0) return extensions.map((e) => `${name}.${e}`);
  const base = stripExtension(name);
  return [name, ...extensions.filter((_, i) => i !== own).map((e) => `${base}.${e}`)];
}

/**
 * Engine built-in image names that are never files: Quake 3 `$whiteimage` / `$lightmap` (tr_shader.c ParseStage)
 * and the renderer's own `*white` etc. (tr_image.c R_CreateBuiltinImages), Daemon's other `$` names, Doom 3's
 * `_white`, `_flat`, `_default`, `_currentRender` … (renderer/Image_init.cpp, all starting with '_' and no '/').
 */
export function builtinImage(name: string): string | null {
  if (name.startsWith('$') || name.startsWith('*')) return name.toLowerCase();
  if (name.startsWith('_') && !name.includes('/')) return name.toLowerCase();
  return null;
}

/**
 * Where Tesseract / Red Eclipse look first for an image written with the `<dds>` command (src/engine/texture.cpp
 * `texturedata`, with `usedds` 1, its default): the path with its last four characters replaced by `.dds`
 * (`skin.jpg` → `skin.dds`); it falls back to the path itself when that file does not load. null for a path under
 * four characters (the engine skips the lookup) or one that already ends in `.dds`.
 */
export function tesseractDdsName(path: string): string | null {
  if (path.length < 4 || path.toLowerCase().endsWith('.dds')) return null;
  return `${path.slice(0, -4)}.dds`;
}

/** Whether a Cube texture name's leading `<…>` commands ask for the DDS first: `<dds>` (and not `<thumbnail>`, which loads raw). */
export function hasDdsCommand(name: string): boolean {
  let dds = false;
  let raw = false;
  for (let s = name; s.startsWith('<'); ) {
    const end = s.indexOf('>');
    if (end < 0) break;
    const cmd = s.slice(1, end).split(/[:,]/)[0];
    if (cmd === 'dds') dds = true;
    else if (cmd === 'thumbnail') raw = true;
    s = s.slice(end + 1);
  }
  return dds && !raw;
}

/**
 * Doom 3's precompressed file for a plain image name (renderer/Image_load.cpp
 * `idImage::ImageProgramStringToCompressedFileName`, used when `image_usePrecompressedTextures` is 1, its default):
 * the name as `ImageFromFile` keeps it (every `.tga` removed, `\` as `/`) under `dds/`, its first four separators
 * kept and later ones turned into spaces, `< > : | " .` into `_`, with `.dds` appended —
 * `models/monsters/imp/imp.tga` → `dds/models/monsters/imp/imp.dds`, `textures/a/b.jpg` → `dds/textures/a/b_jpg.dds`.
 */
export function doom3DdsName(name: string): string {
  let out = 'dds/';
  let depth = 0;
  for (const c of name.split('.tga').join('').replace(/\\/g, '/')) {
    if (c === '/' || c === '(') {
      out += depth < 4 ? '/' : ' ';
      depth++;
    } else if ('<>:|".'.includes(c)) out += '_';
    else if (c === ' ' && out.endsWith('/')) continue;
    else if (c === ')' || c === ',') continue;
    else out += c;
  }
  return `${out}.dds`;
}

/** The folder of a '/'-separated path ('' at the root). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The last component of a '/'- or '\'-separated path. */
export function fileNameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** `folder` and `name` joined with '/'. */
export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}
