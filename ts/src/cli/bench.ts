/** `bench MESH [ANIM] [--json]`: the skin/compose suite on the user's own model. */
import { loadMd5Anim, loadMd5Mesh } from '../load/node.js';
import { assertAnimMatchesMesh } from '../pose/md5-poser.js';
import { formatTable, runSuite } from '../bench/suite.js';
import { parseArgs, UsageError } from './args.js';
import { load } from './input.js';

export async function bench(argv: string[]): Promise<void> {
  const a = parseArgs(argv, [], ['--json']);
  if (a.positionals.length < 1 || a.positionals.length > 2) throw new UsageError('bench takes MESH [ANIM]');
  const [meshPath, animPath] = a.positionals;
  const mesh = await load(meshPath, () => loadMd5Mesh(meshPath));
  const anim = animPath ? await load(animPath, () => loadMd5Anim(animPath)) : null;
  if (anim) await load(animPath, async () => assertAnimMatchesMesh(mesh, anim));
  const result = await runSuite(meshPath.split(/[\\/]/).pop() ?? meshPath, mesh, anim, { timeMs: 200, rounds: 3 });
  if (a.flags.has('--json')) process.stdout.write(JSON.stringify(result) + '\n');
  else process.stdout.write(formatTable([result]) + '\n');
}

