/**
 * Issue 27 against the built CLI, each hostile input made here: a `.gltf` naming /etc/passwd (as an image with
 * --texture-path, as a quantised POSITION buffer), a `file:` buffer, `%zz`, a FIFO; names with ESC/OSC, C1 and
 * bidi controls in MD3 surface and shader names and MD2 skin names; a 6 MB image name in an .mtr; a .pk3 whose
 * members declare more than 64 times its size; `--limit`. Nothing is read outside the input's folder, nothing
 * is written for a refused input, and no line printed holds a control character (other than the line feed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { makeZip } from '../helpers/zip-writer.js';
import { longAnimationGlb, morphGlb, pngBombGlb, skeletonGlb } from '../../../fixtures/generate-hostile-gltf.mjs';

const tmp = cliTemp('cli-security');
let n = 0;
/** A fresh folder for one case. */
const fresh = (name: string) => {
  const d = join(tmp, `${n++}-${name}`);
  mkdirSync(d, { recursive: true });
  return d;
};
/** Control characters a terminal acts on (everything but line feed; tab is harmless but none is printed either). */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('a .gltf reads nothing outside its own folder', () => {
  const passwd = `${'../'.repeat(12)}etc/passwd`;

  it('an image uri of ../ × 12 + etc/passwd with --texture-path: UNSAFE_PATH, exit 1, no passwd.png written', async () => {
    const d = fresh('image');
    writeFileSync(join(d, 'tri.bin'), triangleBin());
    writeFileSync(join(d, 'in.gltf'), triangleGltf({ bufferUri: 'tri.bin', imageUri: passwd }));
    const out = join(d, 'out', 'model.md3');
    mkdirSync(join(d, 'out'));
    const r = await runCli('convert', join(d, 'in.gltf'), '--texture-path', 'models/x', '-o', out);
    expect([r.status, r.stderr]).toEqual([1, expect.stringContaining(`in.gltf:byte 0: UNSAFE_PATH: image 0's uri '${passwd}' leaves the glTF's folder (..)`)]);
    expect(readdirSync(join(d, 'out'))).toEqual([]);
  });

  it('the same uri as a second buffer, read as UNSIGNED_BYTE positions (KHR_mesh_quantization): UNSAFE_PATH, no md5mesh written', async () => {
    const d = fresh('buffer');
    writeFileSync(join(d, 'tri.bin'), triangleBin());
    const gltf = triangleGltf({
      bufferUri: 'tri.bin',
      extra: {
        extensionsUsed: ['KHR_mesh_quantization'],
        extensionsRequired: ['KHR_mesh_quantization'],
        buffers: [{ uri: 'tri.bin', byteLength: 36 }, { uri: passwd, byteLength: 9 }],
        bufferViews: [{ buffer: 0, byteLength: 36 }, { buffer: 1, byteLength: 9 }],
        accessors: [{ bufferView: 1, componentType: 5121, count: 3, type: 'VEC3' }],
      },
    });
    writeFileSync(join(d, 'in.gltf'), gltf);
    const r = await runCli('convert', join(d, 'in.gltf'), '-o', join(d, 'out.md5mesh'));
    expect([r.status, r.stderr]).toEqual([1, expect.stringContaining("UNSAFE_PATH: buffer 1's uri '../../")]);
    expect(existsSync(join(d, 'out.md5mesh'))).toBe(false);
  });

  it('file: and http: buffers, %zz and a FIFO: one typed line each, never "Cannot read properties of undefined", never a hang', async () => {
    const cases: [string, (d: string) => void, RegExp][] = [
      ['file:///etc/passwd', () => {}, /UNSAFE_PATH: buffer 0's uri 'file:\/\/\/etc\/passwd' is a URL or a drive path \(file:\)/],
      ['http://127.0.0.1:9/x.bin', () => {}, /UNSAFE_PATH: buffer 0's uri 'http:\/\/127\.0\.0\.1:9\/x\.bin' is a URL/],
      ['%zz.bin', () => {}, /UNSUPPORTED: buffer 0's uri '%zz\.bin' is not a valid URI \(malformed percent-encoding\)/],
      ['pipe.bin', (d) => execFileSync('mkfifo', [join(d, 'pipe.bin')]), /READ_FAILED: buffer 0's uri 'pipe\.bin': is a FIFO, not a regular file: not read/],
    ];
    for (const [uri, setup, want] of cases) {
      const d = fresh('uri');
      setup(d);
      writeFileSync(join(d, 'in.gltf'), triangleGltf({ bufferUri: uri }));
      const r = await runCli('convert', join(d, 'in.gltf'), '-o', join(d, 'out.md3'));
      expect([r.status, r.stderr], uri).toEqual([1, expect.stringMatching(want)]);
      expect(r.stderr).not.toMatch(/Cannot read properties|URIError/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a .gltf whose files are beside it still converts (the corpus AnimatedMorphCube and its .bin)', async () => {
    const r = await runCli('convert', shared('gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf'), '-o', join(fresh('cube'), 'cube.md3'));
    expect(r.status, r.stderr).toBe(0);
  });
});

/** `bytes` with `text` written (Latin-1, NUL-padded) into the 64-byte name field at `at`. */
function setName(bytes: Uint8Array, at: number, text: string): void {
  bytes.fill(0, at, at + 64);
  for (let i = 0; i < Math.min(63, text.length); i++) bytes[at + i] = text.charCodeAt(i) & 0xff;
}

/** ESC OSC (retitle), ESC CSI (clear screen) and the 8-bit CSI: MD2/MD3 names are Latin-1 bytes, so no bidi override. */
const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\x9b31m';

describe('every line the CLI prints is free of control characters', () => {
  it('MD3 surface and shader names with ESC/OSC/CSI and C1 bytes: inspect and convert print them escaped', async () => {
    const d = fresh('md3');
    const md3 = new Uint8Array(readFileSync(shared('res-tremulous_src.dpkdir/models/mapobjects/nexus6/wallthing.md3')));
    const v = new DataView(md3.buffer);
    const surface = v.getInt32(100, true); // ofsSurfaces
    setName(md3, surface + 4, `wall${HOSTILE}`);
    setName(md3, surface + v.getInt32(surface + 92, true), `models/${HOSTILE}.tga`); // + ofsShaders
    const path = join(d, 'evil.md3');
    writeFileSync(path, md3);
    for (const r of [await runCli('inspect', path), await runCli('inspect', path, '--json'), await runCli('convert', path, '-o', join(d, 'evil.glb'))]) {
      const all = r.stdout + r.stderr;
      expect(all).toContain('\\u001b]0;pwned\\u0007');
      expect(all).not.toMatch(CONTROL);
    }
    // --json stays JSON: the escapes are JSON's
    expect(JSON.parse((await runCli('inspect', path, '--json')).stdout).format).toBe('md3');
  });

  it('an MD2 skin name with OSC, CSI and an 8-bit CSI: escaped in inspect and convert', async () => {
    const d = fresh('md2');
    const md2 = new Uint8Array(readFileSync(shared('distrib/baseaq/pak0/models/indicator/arrow_blue.md2')));
    setName(md2, new DataView(md2.buffer).getInt32(44, true), `skin${HOSTILE}.pcx`); // ofs_skins
    const path = join(d, 'evil.md2');
    writeFileSync(path, md2);
    for (const r of [await runCli('inspect', path), await runCli('convert', path, '-o', join(d, 'evil.glb'))]) {
      const all = r.stdout + r.stderr;
      expect(all).toMatch(/skin\\u001b\]0;pwned\\u0007/);
      expect(all).not.toMatch(CONTROL);
    }
  });

  it('a 6 MB image name in an .mtr: its warning quotes 64 characters and its length, once, and no stderr line passes 4096 characters', async () => {
    const game = fresh('mtr');
    mkdirSync(join(game, 'materials'));
    mkdirSync(join(game, 'models'));
    const name = `textures/${'x'.repeat(6 << 20)}`;
    writeFileSync(join(game, 'materials', 'bomb.mtr'), `models/bomb\n{\n  diffusemap ${name}\n}\n`);
    const mesh = ['MD5Version 10', 'commandline ""', 'numJoints 1', 'numMeshes 1', 'joints {', '"root" -1 ( 0 0 0 ) ( 0 0 0 )', '}',
      'mesh {', 'shader "models/bomb"', 'numverts 3', 'vert 0 ( 0 0 ) 0 1', 'vert 1 ( 1 0 ) 1 1', 'vert 2 ( 0 1 ) 2 1',
      'numtris 1', 'tri 0 0 1 2', 'numweights 3', 'weight 0 0 1 ( 0 0 0 )', 'weight 1 0 1 ( 1 0 0 )', 'weight 2 0 1 ( 0 1 0 )', '}', ''].join('\n');
    writeFileSync(join(game, 'models', 'bomb.md5mesh'), mesh);
    const r = await runCli('convert', join(game, 'models', 'bomb.md5mesh'), '-o', join(game, 'bomb.glb'));
    expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
    expect(r.stderr.length).toBeLessThan(16_384);
    for (const line of r.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(4096 + 40);
    expect(r.stderr).toContain(`… (${name.length} characters)`);
    expect(r.stderr).toMatch(/IMAGE_NOT_FOUND/);
  });
});

describe('inflation bombs and --limit', () => {
  it('a .pk3 whose members declare more than 64 times its size is refused at open, naming the limit; --limit maxTotalRatio raises it', async () => {
    const d = fresh('bomb');
    const md3 = new Uint8Array(readFileSync(shared('res-tremulous_src.dpkdir/models/mapobjects/nexus6/wallthing.md3')));
    // the model plus 64 MiB of spaces as a shader script: ~64 KB of archive making 64 MiB
    const pk3 = join(d, 'bomb.pk3');
    writeFileSync(pk3, makeZip([{ name: 'models/wall.md3', data: md3 }, { name: 'scripts/spaces.shader', data: new Uint8Array(64 << 20).fill(0x20) }]));
    const refused = await runCli('convert', `${pk3}:models/wall.md3`, '-o', join(d, 'wall.glb'));
    expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/bomb\.pk3:byte \d+: INFLATE_LIMIT: the members declare \d+ bytes in all, .* over the limit maxTotalRatio = 64 .*--limit maxTotalRatio=N/)]);
    expect(existsSync(join(d, 'wall.glb'))).toBe(false);
    const raised = await runCli('convert', `${pk3}:models/wall.md3`, '--limit', 'maxTotalRatio=2000', '--limit', 'maxScriptBytes=1k', '-o', join(d, 'wall.glb'));
    expect(raised.status, raised.stderr).toBe(0);
    // the script is still over maxScriptBytes (lowered to 1 KiB here): not read, and said so
    expect(raised.stderr).toMatch(/warning SCRIPT_TOO_LARGE: scripts\/spaces\.shader is not read: .* is 67108864 bytes: over the limit maxScriptBytes = 1024/);
    // --all hands the limits to its worker threads: the worker's warning names the lowered limit too
    const all = await runCli('convert', pk3, '--all', '--jobs', '1', '--limit', 'maxTotalRatio=2000', '--limit', 'maxScriptBytes=1k', '-o', join(d, 'all'), '--json');
    const rows = JSON.parse(all.stdout).models as { path: string; status: string; warnings: string[] }[];
    const wall = rows.find((m) => m.path === 'models/wall.md3')!;
    expect(wall.status).toBe('converted');
    expect(wall.warnings.join('\n')).toMatch(/SCRIPT_TOO_LARGE: scripts\/spaces\.shader is not read: .* over the limit maxScriptBytes = 1024 /);
  });

  it('--limit with an unknown name or a bad value is a usage error (exit 2)', async () => {
    for (const bad of ['maxBogus=1', 'maxImagePixels=0', 'maxImagePixels', 'maxImagePixels=-5']) {
      const r = await runCli('inspect', shared('distrib/baseaq/pak0/models/indicator/arrow_blue.md2'), '--limit', bad);
      expect([r.status, r.stderr.split('\n')[0]], bad).toEqual([2, expect.stringMatching(/^idtech-models: --limit /)]);
    }
  });
});

describe("an IQM's side files (iqm.cfg, .framegroups) stay under the game root and are read with bounds (issue 36)", () => {
  const turret = () => readFileSync(shared('actors-iqm/turret/sphere/turret_sphere.iqm')); // 1 mesh, 3 joints, 4 frames
  const nested = (n: number) => `iqmload "turret.iqm"\n${'if 1 [\n'.repeat(n)}iqmanim "deep" "turret.iqm"\n${']\n'.repeat(n)}`;
  const glbAnimations = (path: string) => {
    const glb = readFileSync(path);
    const len = glb.readUInt32LE(12);
    return (JSON.parse(glb.subarray(20, 20 + len).toString()).animations ?? []).map((a: { name: string }) => a.name);
  };

  it('exec "/etc/passwd" and iqmanim "../outside/x.iqm" in a loose model\'s iqm.cfg: UNSAFE_PATH warnings, the model converts without them', async () => {
    const d = fresh('iqm-cfg-paths');
    mkdirSync(join(d, 'm'));
    mkdirSync(join(d, 'outside'));
    writeFileSync(join(d, 'm', 'turret.iqm'), turret());
    writeFileSync(join(d, 'outside', 'x.iqm'), turret());
    writeFileSync(join(d, 'm', 'iqm.cfg'), 'iqmload "turret.iqm"\nexec "/etc/passwd"\niqmanim "stolen" "../outside/x.iqm"\niqmanim "own" "turret.iqm"\n');
    const out = join(d, 'x.glb');
    const r = await runCli('convert', join(d, 'm', 'turret.iqm'), '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('UNSAFE_PATH: ');
    expect(r.stderr).toContain('exec "/etc/passwd": an absolute path; not read');
    expect(r.stderr).toMatch(/iqmanim "\.\.\/outside\/x\.iqm": leads out of the game's root \(.*\/m\); not read/);
    expect(r.stderr).not.toContain('root:');
    expect(glbAnimations(out)).not.toContain('stolen');
  });

  it('a sparse 600 MB .framegroups or iqm.cfg: RESOURCE_LIMIT naming it and maxScriptBytes, exit 1, nothing written (the process used to abort)', async () => {
    for (const side of ['turret.iqm.framegroups', 'iqm.cfg']) {
      const d = fresh('iqm-side-sparse');
      writeFileSync(join(d, 'turret.iqm'), turret());
      writeFileSync(join(d, side), '');
      truncateSync(join(d, side), 600 << 20);
      const out = join(d, 'x.glb');
      const r = await runCli('convert', join(d, 'turret.iqm'), '--no-textures', '-o', out);
      expect([r.status, r.stderr]).toEqual([1, expect.stringContaining(`${side}:byte 0: RESOURCE_LIMIT: `)]);
      expect(r.stderr).toContain('over the limit maxScriptBytes = 8388608');
      expect(existsSync(out)).toBe(false);
    }
  });

  it("an animation-only IQM in a subfolder of a folder holding a hostile iqm.cfg: refused UNKNOWN_FORMAT, the parent's config not read", async () => {
    const d = fresh('iqm-anim-only');
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'iqm.cfg'), nested(4000).replace('turret.iqm', 'sub/run.iqm'));
    writeFileSync(join(d, 'sub', 'run.iqm'), readFileSync(shared('actors-iqm/player/runcycle0.iqm')));
    const r = await runCli('convert', join(d, 'sub', 'run.iqm'), '-o', join(d, 'x.glb'));
    expect([r.status, r.stderr]).toEqual([1, expect.stringContaining('run.iqm: UNKNOWN_FORMAT: an animation-only Inter-Quake Model (IQM)')]);
    expect(r.stderr).toContain('no model beside it names it');
  });

  it('a game folder where one model has 4,000 nested `if 1 [` and another a 600 MB iqm.cfg: inspect lists all, convert --all converts the rest', async () => {
    const d = fresh('iqm-cfg-dir');
    for (const m of ['good', 'deep', 'huge']) {
      mkdirSync(join(d, 'models', m), { recursive: true });
      writeFileSync(join(d, 'models', m, 'turret.iqm'), turret());
    }
    writeFileSync(join(d, 'models', 'deep', 'anim.iqm'), turret()); // played by the deep one's config: no model of its own
    writeFileSync(join(d, 'models', 'deep', 'iqm.cfg'), nested(4000).replace('"deep" "turret.iqm"', '"deep" "anim.iqm"'));
    writeFileSync(join(d, 'models', 'huge', 'iqm.cfg'), '');
    truncateSync(join(d, 'models', 'huge', 'iqm.cfg'), 600 << 20);
    const listed = await runCli('inspect', d, '--json');
    expect(listed.status, listed.stderr).toBe(0);
    const models = JSON.parse(listed.stdout).models as { path: string; error?: string }[];
    expect(models.map((m) => [m.path, m.error?.split(':')[0] ?? null])).toEqual([
      ['models/deep/turret.iqm', null],
      ['models/good/turret.iqm', null],
      ['models/huge/turret.iqm', 'RESOURCE_LIMIT'],
    ]);
    const out = join(d, 'out');
    const r = await runCli('convert', d, '--all', '--no-textures', '-o', out, '--json');
    expect(r.status, r.stderr).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.models.map((m: { path: string; code?: string }) => [m.path, m.code ?? null])).toEqual([
      ['models/deep/turret.iqm', null],
      ['models/good/turret.iqm', null],
      ['models/huge/turret.iqm', 'RESOURCE_LIMIT'],
    ]);
    expect(j.converted).toBe(2);
    expect(glbAnimations(join(out, 'models', 'deep', 'turret.glb'))).toEqual(['Shoot', 'deep']); // its own anim, then the config's
  });
});

describe('glTF → id formats: what an import samples is bounded before it is decoded, copied or sampled (issue 36)', () => {
  const limit = (name: string) => `over the limit ${name} = \\d+ \\(raise it with --limit ${name}=N`;
  it('each hostile glb (generated) is refused in one typed line naming the file and the limit, and nothing is written', async () => {
    const d = fresh('import-bounds');
    const cases: [string, Uint8Array, string, RegExp][] = [
      ['long.glb', longAnimationGlb(), 'x.md3', new RegExp(`^idtech-models: .*long\\.glb:byte 0: UNWRITABLE: 65401 frames of 1 surfaces and 0 tags of MD3 are 2146199216 bytes to sample: ${limit('maxImportBytes')}`)],
      ['skeleton.glb', skeletonGlb(), 'x.md5mesh', new RegExp(`^idtech-models: .*skeleton\\.glb:byte 0: UNWRITABLE: 65521 frames of 680 joints .* ${limit('maxImportBytes')}`)],
      ['skeleton.glb', skeletonGlb(), 'x.iqm', new RegExp(`^idtech-models: .*skeleton\\.glb:byte 0: UNWRITABLE: 65521 frames of 680 joints .* ${limit('maxImportBytes')}`)],
      ['morph.glb', morphGlb(), 'x.md3', new RegExp(`^idtech-models: .*morph\\.glb:byte 0: UNWRITABLE: mesh 0 primitive 0: 50000 morph targets × 3072 vertices .* ${limit('maxMorphTargetVertices')}`)],
      ['morph.glb', morphGlb(), 'x.md2', new RegExp(`^idtech-models: .*morph\\.glb:byte 0: UNWRITABLE: mesh 0 primitive 0: 50000 morph targets .* ${limit('maxMorphTargetVertices')}`)],
    ];
    for (const [name, bytes, out, want] of cases) {
      const input = join(d, name);
      writeFileSync(input, bytes);
      const r = await runCli('convert', input, '-o', join(d, out));
      expect([r.status, r.stderr.trim().split('\n')], `${name} → ${out}`).toEqual([1, [expect.stringMatching(want)]]);
    }
    expect(readdirSync(d).sort()).toEqual(['long.glb', 'morph.glb', 'skeleton.glb']);
  });

  it("a 35 KB glb whose skin is a 16,384² PNG → MDL: not decoded (the warning names maxImagePixels), the MDL written with the factor's skin", async () => {
    const d = fresh('png-skin');
    writeFileSync(join(d, 'skin.glb'), pngBombGlb({ side: 16384 }));
    const r = await runCli('convert', join(d, 'skin.glb'), '-o', join(d, 'x.mdl'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`warning GLTF_SKIN_NOT_DECODED: the base colour image "bomb" does not decode \\(RESOURCE_LIMIT: the PNG is 16384×16384, 268435456 pixels: ${limit('maxImagePixels')}`));
    expect(r.stdout + r.stderr).toMatch(/skin 256×256/);
  });

  it('--limit raises or lowers each bound: maxImportBytes, maxImportFrames, maxMorphTargetVertices', async () => {
    const d = fresh('import-limit');
    const input = join(d, 'short.glb');
    // 30 vertices over 10 s: 151 frames at 15 fps, 151 · (56 + 8 · 30) = 44,696 bytes of MD3
    writeFileSync(input, longAnimationGlb({ vertices: 30, seconds: 10 }));
    const lowered = await runCli('convert', input, '--limit', 'maxImportBytes=44695', '-o', join(d, 'x.md3'));
    expect([lowered.status, lowered.stderr]).toEqual([1, expect.stringMatching(/are 44696 bytes to sample: over the limit maxImportBytes = 44695 \(raise it with --limit maxImportBytes=N/)]);
    expect(existsSync(join(d, 'x.md3'))).toBe(false);
    const frames = await runCli('convert', input, '--limit', 'maxImportFrames=150', '-o', join(d, 'x.md3'));
    expect([frames.status, frames.stderr]).toEqual([1, expect.stringMatching(/makes 151 frames in all: over the limit maxImportFrames = 150 /)]);
    const written = await runCli('convert', input, '--limit', 'maxImportBytes=44696', '-o', join(d, 'x.md3'));
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout + written.stderr).toMatch(/151 frames/);
    writeFileSync(join(d, 'morph.glb'), morphGlb({ targets: 10, vertices: 3 }));
    const morph = await runCli('convert', join(d, 'morph.glb'), '--limit', 'maxMorphTargetVertices=29', '-o', join(d, 'm.md3'));
    expect([morph.status, morph.stderr]).toEqual([1, expect.stringMatching(/10 morph targets × 3 vertices make 30 morph target vertices in all: over the limit maxMorphTargetVertices = 29 /)]);
    expect((await runCli('convert', join(d, 'morph.glb'), '-o', join(d, 'm.md3'))).status).toBe(0);
  });
});
