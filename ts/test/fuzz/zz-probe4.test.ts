import './alloc-meter-install.js';
import { it } from 'vitest';
import { makeGltfInput, checkGltfInput } from './gltf-target.js';
it('probe', async () => {
  for (const i of (process.env.IDX ?? '').split(',').map(Number)) {
    const inp = await makeGltfInput(Number(process.env.SEED), i);
    console.log('INPUT', i, inp.from, inp.ops.join(' '), inp.bytes.length);
    const t0 = performance.now();
    const o = await checkGltfInput(inp.bytes, inp.resources);
    console.log('OUT', i, o.code, o.allocated, (performance.now() - t0).toFixed(0), o.violation?.kind, o.violation?.detail.slice(0, 300));
  }
}, 300000);
