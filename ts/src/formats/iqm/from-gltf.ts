/**
 * glTF → IQM: through the MD5 import (`gltfToMd5`: the scene's skins as joints, each glTF animation sampled at
 * `fps`, or without it at its own key rate when its keys are evenly spaced, the bind and weights as LBS gives
 * them) and then `md5ToIqm` (iqm.cpp's blend bytes, channels quantised).
 * One path for both conversions, so glTF → IQM and MD5 → IQM write the same kind of file. What MD5 cannot hold the
 * IQM does not either: joint scale (the rigid part is kept, as gltfToMd5 says) and morph targets.
 */
import type { IqmModel } from '../../base/model.js';
import type { ParseWarning } from '../../base/errors.js';
import type { GltfInput } from '../../import/gltf.js';
import { gltfToMd5, type GltfToMd5Options } from '../../import/gltf-md5.js';
import { md5ToIqm, type Md5ToIqmOptions } from './md5-iqm.js';

export interface GltfIqm {
  model: IqmModel;
  warnings: ParseWarning[];
}

/**
 * Bytes a joint's pose takes per frame through both steps, counted against `maxImportBytes` before sampling: the
 * md5anim's 48 and md5ToIqm's 10 channels in float64 (80), which it holds for every frame to quantise them.
 */
const IQM_JOINT_BYTES = 48 + 80;

export async function gltfToIqm(input: GltfInput, options: GltfToMd5Options & Md5ToIqmOptions = {}): Promise<GltfIqm> {
  const { mesh, anims, warnings } = await gltfToMd5(input, { jointBytes: IQM_JOINT_BYTES, ...options });
  return { model: md5ToIqm(mesh, anims, options), warnings };
}
