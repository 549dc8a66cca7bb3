/**
 * One clip name for one clip, everywhere (issue 41): a model whose frames are named by digits alone (Tremulous' buildables; id's
 * own progs/dog.mdl) has clips with empty names in the file; its registration's view names them, and the
 * three.js clips, the viewer's list (the view's) and `IdTechModel.play` all use those names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { distinctClipNames } from '../../src/formats/model-view.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { morphToThree } from '../../src/three/morph-model.js';
import { groupClips } from '../../src/base/frame-clips.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { join } from 'node:path';
import { viewOf } from '../three/views.js';

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('ts');
});
afterAll(() => backend.dispose());

describe('clip names', () => {
  it('are never empty and never repeated: `clip<i>` for an empty name (`anim<i>` for skinned), `name_2` for a repeat', () => {
    expect(distinctClipNames(['', 'run', 'run', ''], 'clip')).toEqual(['clip0', 'run', 'run_2', 'clip3']);
    expect(distinctClipNames(['', 'idle'], 'anim')).toEqual(['anim0', 'idle']);
  });

  it.each([
    ['res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3', (b: Uint8Array) => parseMd3(b)],
  ])('%s: the file has a clip with no name; the view, three.js and play() share one name for it', async (path, parse) => {
    const model = parse(read(join(SHARED_MODELS, path))) as { clips?: { name: string }[]; frameNames?: string[] };
    const fileClips = model.clips ?? groupClips(model.frameNames!);
    expect(fileClips.some((c) => c.name === '')).toBe(true);
    const view = await viewOf('morph', model, backend);
    const names = view.clips.map((c) => c.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.length > 0)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    const three = morphToThree(view, { name: 'm', format: 'test', mode: 'poser', quantize: true, materials: [] });
    expect(three.clips.map((c) => c.name)).toEqual(names);
  });
});
