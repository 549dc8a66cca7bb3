/** The built CLI (bin/idtech-models.js → dist/cli.js) on every real MD5, on bad input and bad usage. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { runChild } from '../helpers/child.js';
import { runCli as run } from '../helpers/cli.js';
import { magicOf, md5Header, registered, unreadModelFiles } from '../helpers/corpus-kinds.js';
import { invalidFiles, manifest, read, realAnimPairs, realMeshes, renamedAnimPairs, REPO } from '../helpers/models.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-'));

describe('idtech-models inspect', () => {
  for (const row of realMeshes()) {
    it(`${row.path} --json gives the mesh's counts`, async () => {
      const r = await run('inspect', row.absPath, '--json');
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      const mesh = parseMd5Mesh(read(row.absPath));
      expect(j.format).toBe('md5mesh');
      expect(j.joints).toBe(mesh.joints.count);
      expect(j.meshes).toBe(mesh.meshes.length);
      expect(j.vertices).toBe(mesh.meshes.reduce((n, m) => n + m.vertexCount, 0));
      expect(j.jointNames).toEqual(mesh.joints.names);
      const m = /verts=(\d+) tris=(\d+) weights=(\d+)/.exec(row.notes);
      if (m) expect([j.vertices, j.triangles, j.weights]).toEqual(m.slice(1).map(Number));
    });
  }
  for (const { anim } of realAnimPairs()) {
    it(`${anim.path} shows frames and frame rate`, async () => {
      const r = await run('inspect', anim.absPath);
      expect(r.status, r.stderr).toBe(0);
      const [frames, rate] = [md5Header(anim, 'numFrames'), md5Header(anim, 'frameRate')];
      expect(r.stdout).toMatch(new RegExp(`^frames\\s+${frames}$`, 'm'));
      expect(r.stdout).toMatch(new RegExp(`^frameRate\\s+${rate}$`, 'm'));
    });
  }
  it("an md5anim's inspect does not load Node's fetch (undici, ~9 ms): start-up is part of every run", async () => {
    const anim = realAnimPairs()[0].anim.absPath;
    const probe = [
      `process.argv = [process.argv[0], 'idtech-models', 'inspect', ${JSON.stringify(anim)}];`,
      `await import(${JSON.stringify(join(REPO, 'dist', 'cli.js'))});`,
      "process.on('exit', () => process.stderr.write(JSON.stringify({ undici: process.moduleLoadList.some((m) => m.includes('undici')) })));",
    ].join('\n');
    const r = await runChild(process.execPath, ['--input-type=module', '-e', probe]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^frames\s+\d+$/m);
    expect(JSON.parse(r.stderr)).toEqual({ undici: false });
  });
  // The camera file is refused by kind before any parser runs (cli-first-use.test.ts).
  // assimp's "invalid" folder also holds files Doom 3 loads (overflowing vert/tri/weight markers, which the engine
  // reads and ignores): the parser accepts those with INDEX_MARKER warnings (md5/mesh.test.ts), and inspect must too.
  const refused = (row: { absPath: string; format: string }) => {
    if (row.format !== 'md5mesh') return true;
    try {
      parseMd5Mesh(read(row.absPath));
      return false;
    } catch {
      return true;
    }
  };
  // Invalid files of formats this build reads (assimp's InvalidFrameBaseOffset.mdc among them since formats/mdc).
  const readInvalid = () => invalidFiles().filter((r) => registered(r.format) && r.format !== 'md5camera');
  for (const row of readInvalid().filter((r) => !refused(r))) {
    it(`${row.path}, which Doom 3 loads, inspects with exit 0 and its INDEX_MARKER warning`, async () => {
      const r = await run('inspect', row.absPath);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/INDEX_MARKER/);
    });
  }
  for (const row of readInvalid().filter((r) => refused(r))) {
    it(`${row.path} exits 1 with file, code and line:column (a binary file: its byte) on one line`, async () => {
      const r = await run('inspect', row.absPath);
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      const where = row.format.startsWith('md5') ? '\\d+:\\d+' : 'byte \\d+';
      expect(lines[0]).toMatch(new RegExp(`${row.absPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${where}: [A-Z_]+: `));
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }
  // Every model file of the corpus is of a format this build reads since RtCW/ET's (issue 39); GoldSrc's `.mdl` (IDST,
  // IDSQ) is told apart from Quake's by its first bytes (its sequence group and texture files are refused alone, by
  // name). A file of no registered format is refused in one line: an Unreal .psk (ACTRHEAD), made here.
  it('the corpus holds no model file this build does not read', () => {
    expect(unreadModelFiles().map((r) => `${r.format} ${magicOf(r)} ${r.path}`)).toEqual([]);
  });
  it('a model file of no registered format (an Unreal .psk) exits 1 with one line naming the file and why, no stack trace', async () => {
    const file = join(tmp, 'mesh.psk');
    writeFileSync(file, Buffer.concat([Buffer.from('ACTRHEAD'), Buffer.alloc(24)]));
    const r = await run('inspect', file);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^idtech-models: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a model file this tool reads \\(`));
  });
  it('a GoldSrc model inspects as hl1mdl (not as Quake\'s MDL), every table a row; its group file alone is refused by name', async () => {
    const man = manifest().find((r) => r.path.endsWith('MDL (HL1)/man.mdl'))!;
    const r = await run('inspect', man.absPath, '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.format, j.bones.length, j.controllers.length, j.hitboxes.length, j.sequences.length, j.attachments.length]).toEqual(['hl1mdl', 8, 3, 6, 3, 2]);
    const group = await run('inspect', man.absPath.replace(/man\.mdl$/, 'man01.mdl'));
    expect(group.status).toBe(0); // inspect reads any file of the format: a group file's header
    expect(group.stdout).toMatch(/sequence group \(IDSQ\)/);
  });
});

describe('idtech-models convert', () => {
  for (const { anim, mesh } of realAnimPairs()) {
    it(`${mesh.path.split('/').pop()} + ${anim.path.split('/').pop()} → OBJ in file order, same on WASM and TS`, async () => {
      const parsed = parseMd5Mesh(read(mesh.absPath));
      const frame = String(Math.floor(md5Header(anim, 'numFrames') / 2));
      const outs: string[] = [];
      for (const backend of ['wasm', 'ts']) {
        const out = join(tmp, `${backend}.obj`);
        const r = await run('convert', mesh.absPath, '--anim', anim.absPath, '--frame', frame, '--backend', backend, '-o', out);
        expect(r.status, r.stderr).toBe(0);
        outs.push(readFileSync(out, 'utf8'));
      }
      const vOf = (t: string) => t.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number));
      const [a, b] = outs.map(vOf);
      expect(a.length).toBe(parsed.meshes.reduce((n, m) => n + m.vertexCount, 0));
      let d = 0;
      a.forEach((v, i) => v.forEach((x, k) => (d = Math.max(d, Math.abs(x - b[i][k])))));
      expect(d).toBeLessThan(1e-3);
      const text = outs[0];
      expect(text.split('\n').filter((l) => l.startsWith('o ')).length).toBe(parsed.meshes.length);
      expect(text.split('\n').filter((l) => l.startsWith('f ')).length).toBe(parsed.meshes.reduce((n, m) => n + m.triangleCount, 0));
      expect(text.split('\n').filter((l) => l.startsWith('vn ')).length).toBe(a.length);
    });
  }
  it('without --anim writes the bind pose; --y-up rotates Z-up to Y-up', async () => {
    const mesh = realMeshes().find((r) => r.path.endsWith('SimpleCube.md5mesh'))!;
    const z = join(tmp, 'z.obj'), y = join(tmp, 'y.obj');
    expect((await run('convert', mesh.absPath, '-o', z)).status).toBe(0);
    expect((await run('convert', mesh.absPath, '--y-up', '-o', y)).status).toBe(0);
    const v = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number));
    const [zs, ys] = [v(z), v(y)];
    expect(zs.length).toBe(24);
    zs.forEach((p, i) => {
      expect(ys[i][0]).toBeCloseTo(p[0], 5);
      expect(ys[i][1]).toBeCloseTo(p[2], 5);
      expect(ys[i][2]).toBeCloseTo(-p[1], 5);
    });
  });
  it('a mesh/anim pair that does not match exits 1 with ANIM_MESH_MISMATCH', async () => {
    const drone = realMeshes().find((r) => r.path.endsWith('drone/mesh.md5mesh'))!;
    const rifleAnim = realAnimPairs().find((p) => p.anim.path.endsWith('rifle_view_idle.md5anim'))!.anim;
    const r = await run('convert', drone.absPath, '--anim', rifleAnim.absPath, '-o', join(tmp, 'x.obj'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ANIM_MESH_MISMATCH/);
  });
  // Unvanquished plays walk and jump on the naked human by joint index; their joint names differ from the mesh's
  // (MANIFEST: "the mesh says …"): converted, with a warning naming the joint.
  for (const { anim, mesh } of renamedAnimPairs()) {
    it(`${mesh.path.split('/').pop()} + ${anim.path.split('/').pop()}, whose joint names differ, converts (exit 0) and warns ENGINE_LIMIT at the joint the MANIFEST names`, async () => {
      const r = await run('convert', mesh.absPath, '--anim', anim.absPath, '-o', join(tmp, 'renamed.obj'));
      expect(r.status, r.stderr).toBe(0);
      const joint = /joints? (\d+)/.exec(anim.notes)![1];
      expect(r.stderr).toMatch(new RegExp(`ENGINE_LIMIT: joint ${joint} is "[^"]+" in the anim but "[^"]+" in the mesh: Daemon plays it by joint index`));
    });
  }
  it('bench --json on a real model reports every backend, with parity', async () => {
    const drone = realAnimPairs().find((p) => p.anim.path.endsWith('drone/forward.md5anim'))!;
    const r = await run('bench', drone.mesh.absPath, drone.anim.absPath, '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.vertices).toBe(1439);
    expect(j.joints).toBe(27);
    expect(j.frames).toBe(12);
    for (const b of ['wasm-simd', 'wasm-scalar', 'ts']) {
      expect(j.skin_mverts_per_s[b]).toBeGreaterThan(0);
      expect(j.backends[b].compose_ns_per_joint).toBeGreaterThan(0);
    }
    expect(j.parity_max_rel).toBeLessThan(1e-4);
  });
  it('bad usage exits 2; a missing file exits 1', async () => {
    expect((await run()).status).toBe(2);
    expect((await run('convert')).status).toBe(2);
    expect((await run('frobnicate')).status).toBe(2);
    expect((await run('convert', 'x.md5mesh', '--frame', '-3', '--anim', 'a.md5anim', '-o', 'o.obj')).status).toBe(2);
    expect((await run('inspect', '--wat', 'x')).status).toBe(2);
    expect((await run('bench')).status).toBe(2);
    const missing = await run('inspect', join(tmp, 'nope.md5mesh'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/ENOENT/);
  });
});
