/**
 * The compose / skin / frame benchmark of one model on every backend (tinybench), shared by `npm run bench`
 * (bench/run.mjs) and `idtech-models bench`. Numbers: compose = ns per joint (compose → object space →
 * matrices), skin = million skinned vertices per second (positions, file order), skin grouped = the same in
 * the grouped ("fast") output order, skin pnt = positions + normals + tangents (file order), frame = µs for
 * compose + skin positions.
 */
import { Bench } from 'tinybench';
import { boundingDiagonal } from '../base/bounds.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import type { BackendName } from '../kernels/backend.js';
import { Md5Poser } from '../pose/md5-poser.js';
import { createBackend } from '../kernels/select.js';
import { wasmSimdSupported } from '../kernels/wasm-backend.js';

export interface BackendNumbers {
  compose_ns_per_joint: number | null;
  skin_mverts_per_s: number;
  skin_grouped_mverts_per_s?: number;
  skin_pnt_mverts_per_s?: number;
  frame_us: number;
}

export interface SuiteResult {
  model: string;
  vertices: number;
  joints: number;
  weights: number;
  frames: number;
  /** max |backend − TS| over the frames checked, divided by the bounding-box diagonal. */
  parity_max_rel: number;
  backends: Partial<Record<BackendName | 'native', BackendNumbers>>;
  skin_mverts_per_s: Partial<Record<BackendName | 'native', number>>;
}

export async function runSuite(model: string, mesh: Md5Mesh, anim: Md5Anim | null, options: { timeMs?: number; rounds?: number } = {}): Promise<SuiteResult> {
  const names: BackendName[] = [...(wasmSimdSupported() ? (['wasm-simd'] as const) : []), 'wasm-scalar', 'ts'];
  const posers = new Map<BackendName, Md5Poser>();
  const groupedPosers = new Map<BackendName, Md5Poser>();
  const pntPosers = new Map<BackendName, Md5Poser>();
  for (const n of names) {
    const backend = await createBackend(n);
    const p = new Md5Poser(backend, mesh);
    if (anim) p.setAnim(anim);
    posers.set(n, p);
    // Same skeleton pose (bind) for the extra skin tasks: skinning cost does not depend on the pose.
    const g = new Md5Poser(backend, mesh, { order: 'grouped', stream: p.stream });
    g.poseBind(false);
    groupedPosers.set(n, g);
    const t = new Md5Poser(backend, mesh, { stream: p.stream, tangents: true });
    t.poseBind(true);
    pntPosers.set(n, t);
  }
  const frameCount = anim ? anim.frameCount : 1;
  const pose = (p: Md5Poser, f: number) => (anim ? p.poseJoints(f) : p.poseBind(false));

  // Parity on up to 8 frames spread over the anim.
  let parity = 0;
  const ts = posers.get('ts')!;
  for (let i = 0; i < Math.min(8, frameCount); i++) {
    const f = Math.floor((i * frameCount) / Math.min(8, frameCount));
    pose(ts, f);
    ts.skin(false);
    const ref = ts.positions.slice();
    const diag = boundingDiagonal(ref) || 1;
    for (const [n, p] of posers) {
      if (n === 'ts') continue;
      pose(p, f);
      p.skin(false);
      const out = p.positions;
      for (let k = 0; k < ref.length; k++) parity = Math.max(parity, Math.abs(out[k] - ref[k]) / diag);
    }
  }

  // Several short rounds, every task once per round, best median kept: a transient stall (GC, the other
  // core's load, frequency changes) spoils one round of one task, not the reported number.
  const best = new Map<string, number>();
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    const bench = new Bench({ time: options.timeMs ?? 300, warmupTime: 50 });
    for (const [n, p] of posers) {
      let f = 0;
      if (anim) bench.add(`${n} compose`, () => { p.poseJoints(f); f = (f + 1) % frameCount; });
      bench.add(`${n} skin`, () => p.skin(false));
      const grouped = groupedPosers.get(n)!, pnt = pntPosers.get(n)!;
      bench.add(`${n} skin grouped`, () => grouped.skin(false));
      bench.add(`${n} skin pnt`, () => pnt.skin(true));
      let g = 0;
      bench.add(`${n} frame`, () => { pose(p, g); p.skin(false); g = (g + 1) % frameCount; });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result as { latency?: { p50?: number; mean: number } } | undefined;
      if (!r?.latency) throw new Error(`benchmark task ${t.name} did not complete`);
      best.set(t.name, Math.min(best.get(t.name) ?? Infinity, r.latency.p50 ?? r.latency.mean));
    }
  }
  const ms = (name: string) => best.get(name)!;
  const vertices = posers.get('ts')!.vertexCount;
  const result: SuiteResult = {
    model,
    vertices,
    joints: mesh.joints.count,
    weights: posers.get('ts')!.stream.weightTotal,
    frames: anim ? anim.frameCount : 0,
    parity_max_rel: parity,
    backends: {},
    skin_mverts_per_s: {},
  };
  for (const n of names) {
    const skin = vertices / ms(`${n} skin`) / 1000;
    result.backends[n] = {
      compose_ns_per_joint: anim ? (ms(`${n} compose`) * 1e6) / mesh.joints.count : null,
      skin_mverts_per_s: skin,
      skin_grouped_mverts_per_s: vertices / ms(`${n} skin grouped`) / 1000,
      skin_pnt_mverts_per_s: vertices / ms(`${n} skin pnt`) / 1000,
      frame_us: ms(`${n} frame`) * 1000,
    };
    result.skin_mverts_per_s[n] = skin;
  }
  for (const m of [posers, groupedPosers, pntPosers]) m.forEach((p) => p.dispose());
  return result;
}

const fmt = (x: number | null | undefined, digits = 1) => (x == null ? '—' : x.toFixed(digits));
const times = (x: number | null) => (x == null ? '—' : `${x.toFixed(2)}×`);

/** A plain-text table: one block per model, rows compose / skin / frame, ratio columns. */
export function formatTable(results: SuiteResult[]): string {
  const cols: (BackendName | 'native')[] = ['wasm-simd', 'wasm-scalar', 'ts', 'native'];
  const lines: string[] = [];
  const head = ['model / metric'.padEnd(44), ...cols.map((c) => c.padStart(11)), 'SIMD/TS'.padStart(9), 'SIMD/native'.padStart(12)];
  lines.push(head.join(' '));
  for (const r of results) {
    lines.push(`${r.model} — ${r.vertices} vertices, ${r.joints} joints, ${r.weights} weights, ${r.frames} frames, parity ${r.parity_max_rel.toExponential(1)} of diagonal`);
    const rows: [string, keyof BackendNumbers, boolean][] = [
      ['  compose, ns/joint (lower is better)', 'compose_ns_per_joint', false],
      ['  skin positions, Mvert/s (higher is better)', 'skin_mverts_per_s', true],
      ['  skin positions, grouped order, Mvert/s', 'skin_grouped_mverts_per_s', true],
      ['  skin pos+normals+tangents, Mvert/s', 'skin_pnt_mverts_per_s', true],
      ['  compose+skin frame, µs (lower is better)', 'frame_us', false],
    ];
    for (const [label, key, higher] of rows) {
      const v = (c: BackendName | 'native') => r.backends[c]?.[key] ?? null;
      const ratio = (a: number | null, b: number | null) => (a && b ? (higher ? a / b : b / a) : null);
      lines.push(
        [label.padEnd(44), ...cols.map((c) => fmt(v(c), key.startsWith('skin') ? 1 : 2).padStart(11)), times(ratio(v('wasm-simd'), v('ts'))).padStart(9), times(ratio(v('wasm-simd'), v('native'))).padStart(12)].join(' '),
      );
    }
  }
  return lines.join('\n');
}
