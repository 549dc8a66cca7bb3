/** `bench MESH [ANIM] [--json]`: the skin/compose suite on the user's own model. */
import { basename } from 'node:path';
import { formatTable, runSuite } from '../../bench/suite.js';
import type { Md5Anim, Md5Mesh } from '../../node.js';
import { UsageError, type CliContext, type Command, type CommandSpec, type ParsedArgs } from '../args.js';
import { stat } from 'node:fs/promises';
import { readableExtensions } from '../../files.js';
import { badInput, inputFormat, load, modelInput, readModel } from '../inputs.js';

const spec: CommandSpec = {
  name: 'bench',
  summary: 'time skinning your .md5mesh on each backend (WASM SIMD, WASM scalar, TS)',
  usage: ['bench MESH.md5mesh [ANIM.md5anim] [--json]'],
  about: [
    'Times, with tinybench, the posing of your model on each backend this machine runs (WASM SIMD, WASM scalar, ' +
      'TS): composing the joints (ns per joint; needs ANIM), skinning positions in file order and in grouped order, ' +
      'positions + normals + tangents, and a whole frame. Also checks that every backend poses like the TS one ' +
      '(largest difference, relative to the model size). Without ANIM the bind pose is skinned.',
    'Takes a few seconds. Exit status: 0 done, 1 bad input, 2 bad usage.',
  ],
  options: [{ name: '--json', help: 'Print the numbers as one JSON object instead of a table.' }],
  examples: ['bench models/monsters/imp/imp.md5mesh models/monsters/imp/walk1.md5anim'],
};

async function run(a: ParsedArgs, { formats }: CliContext): Promise<void> {
  if (a.positionals.length < 1 || a.positionals.length > 2) throw new UsageError('bench takes MESH [ANIM]', 'bench');
  const [meshPath, animPath] = a.positionals;
  const input = await modelInput(meshPath);
  try {
    if (!input.archive && (await load(meshPath, () => stat(meshPath))).isDirectory()) throw badInput(meshPath, `is a folder, not a model file (${readableExtensions(formats)})`);
    const format = await inputFormat(input, formats);
    // The suite times MD5's compose and skin kernels.
    if (format.id !== 'md5mesh') throw new UsageError(`${meshPath}: bench times MD5 skinning and takes an .md5mesh, not ${format.folder ? `a ${format.folder.noun}` : `an ${format.extensions[0]}`}`, 'bench');
    const set = await readModel(input, format, animPath ? [animPath] : [], formats);
    const result = await runSuite(basename(meshPath), set.data as Md5Mesh, (set.companions[0]?.data as Md5Anim | undefined) ?? null, { timeMs: 200, rounds: 3 });
    if (a.flags.has('--json')) process.stdout.write(JSON.stringify(result) + '\n');
    else process.stdout.write(formatTable([result]) + '\n');
  } finally {
    await input.close();
  }
}

export const bench: Command = { spec, run };
