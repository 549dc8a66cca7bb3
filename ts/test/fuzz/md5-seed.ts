/**
 * A small skinned MD5 (two joints, one triangle) and an md5anim of any number of frames, as text: what the generated
 * IQM seeds are made of (md5ToIqm + writeIqm), without the shared models.
 */
export const MD5MESH = `MD5Version 10
commandline ""
numJoints 2
numMeshes 1
joints {
  "root" -1 ( 0 0 0 ) ( 0 0 0 )
  "tip" 0 ( 0 0 1 ) ( 0 0 0.7071 )
}
mesh {
  shader "skin"
  numverts 3
  vert 0 ( 0 0 ) 0 1
  vert 1 ( 1 0 ) 1 2
  vert 2 ( 0 1 ) 3 1
  numtris 1
  tri 0 0 1 2
  numweights 4
  weight 0 0 1 ( 0 0 0 )
  weight 1 0 0.5 ( 1 0 0 )
  weight 2 1 0.5 ( 1 0 -1 )
  weight 3 1 1 ( 0 1 -1 )
}
`;

/** An md5anim of `frames` frames for MD5MESH: the root moves, the tip turns. */
export function md5AnimText(frames: number): string {
  const lines = [
    'MD5Version 10', 'commandline ""', `numFrames ${frames}`, 'numJoints 2', 'frameRate 24', 'numAnimatedComponents 7',
    'hierarchy {', '  "root" -1 63 0', '  "tip" 0 32 6', '}', 'bounds {',
  ];
  for (let f = 0; f < frames; f++) lines.push('  ( -1 -1 -1 ) ( 2 2 2 )');
  lines.push('}', 'baseframe {', '  ( 0 0 0 ) ( 0 0 0 )', '  ( 0 0 1 ) ( 0 0 0.7071 )', '}');
  for (let f = 0; f < frames; f++) lines.push(`frame ${f} {`, `  0 0 ${f / frames} 0 0 ${(0.1 * f) / frames}`, `  ${0.3 + (0.2 * f) / frames}`, '}');
  return lines.join('\n') + '\n';
}
