/**
 * Bundled by viewer.test.ts for a page of its own: three.js's GLTFLoader reading back a .glb the viewer exported,
 * as any three.js app would (`window.readGlb(base64)`): its animations, meshes (skinned, morphed) and textures.
 */
import type { Mesh, MeshStandardMaterial, SkinnedMesh } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

async function readGlb(base64: string) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer, '');
  let meshes = 0, skinned = 0, morphed = 0, textured = 0;
  gltf.scene.traverse((o) => {
    const m = o as Mesh;
    if (!m.isMesh) return;
    meshes++;
    if ((m as SkinnedMesh).isSkinnedMesh) skinned++;
    if (m.morphTargetInfluences?.length) morphed++;
    for (const mat of [m.material].flat() as MeshStandardMaterial[]) if (mat.map?.image) textured++;
  });
  return { animations: gltf.animations.map((a) => ({ name: a.name, tracks: a.tracks.length, duration: a.duration })), meshes, skinned, morphed, textured };
}

(window as unknown as { readGlb: typeof readGlb }).readGlb = readGlb;
document.body.dataset.ready = 'yes';
