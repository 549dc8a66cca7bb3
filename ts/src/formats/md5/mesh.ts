/**
 * md5mesh parser: push-driven (`write(chunk)` any number of times, then `end()`), an explicit state machine over
 * the tokens of {@link Md5Tokenizer}.
 *
 * Grammar (the order real files use):
 *   MD5Version 10
 *   commandline "<string>"
 *   numJoints N
 *   numMeshes N
 *   joints { ( "name" parent ( x y z ) ( qx qy qz ) ) × numJoints }
 *   ( mesh {
 *       [ name "<string>" ]
 *       shader "<string>"
 *       numverts N    ( vert i ( u v ) weightStart weightCount ) × N
 *       numtris N     ( tri i a b c ) × N
 *       numweights N  ( weight i joint bias ( x y z ) ) × N
 *     } ) × numMeshes
 *
 * Checks (all {@link ModelParseError}, positioned at the offending token): counts against {@link LIMITS}
 * (BAD_COUNT), declared counts against the elements present (BAD_COUNT; end of input between mesh blocks with
 * fewer blocks than declared is BAD_COUNT too, anywhere else it is TRUNCATED at the end-of-input position),
 * `vert/tri/weight N` markers (BAD_INDEX_MARKER), parent −1 or < own index, weight joint < numJoints,
 * triangle vertex < numverts, weightStart + weightCount ≤ numweights with weightCount ≥ 1 (INDEX_OUT_OF_RANGE),
 * integers where the grammar wants integers (BAD_NUMBER), keywords out of order (MISSING_BLOCK / DUPLICATE_BLOCK).
 * Several root joints are allowed.
 *
 * Memory: lists are allocated after their count is read, at most {@link LIMITS.initialElements} elements up front,
 * and grow by doubling (capped at the declared count) as elements arrive, so the final arrays are exactly sized.
 *
 * Mesh mode (`onMesh`): each mesh block is handed out when its `}` is read and not kept, so a file of many meshes
 * is held one mesh at a time (`mesh-stream.ts` builds the async iterator on it).
 */
import { recoverW } from '../../base/quat.js';
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { Md5Joints, Md5Mesh, Md5MeshPart } from '../../base/model.js';
import { LIMITS } from './limits.js';
import {
  H_CMD,
  H_NEXT,
  H_VERSION,
  H_VERSION_KW,
  Md5ParserBase,
  growF32,
  growU32,
  md5Grammar,
} from './parser-base.js';
import { decodeText, KeywordTable } from '../../text/tokenizer.js';

/** Everything of an md5mesh before its first mesh block. */
export type Md5MeshHeader = Omit<Md5Mesh, 'meshes'> & { meshCount: number };

export interface Md5MeshParserOptions {
  /**
   * Mesh mode: called with each mesh block as soon as its `}` is read; the parser keeps no reference to it, and
   * `end()` returns the model with an empty `meshes` list. The callback may call {@link Md5MeshParser.pause}.
   */
  onMesh?: (mesh: Md5MeshPart, index: number) => void;
  /** Called once the joints are read, before the first mesh block (may call `pause`). */
  onHeader?: (header: Md5MeshHeader) => void;
}

/** Keywords; the index doubles as the order rank (file level 0..5, mesh level 6..13). */
const KW = [
  'MD5Version',
  'commandline',
  'numJoints',
  'numMeshes',
  'joints',
  'mesh',
  'name',
  'shader',
  'numverts',
  'vert',
  'numtris',
  'tri',
  'numweights',
  'weight',
] as const;
const KEYWORDS = new KeywordTable(KW);
const K_NUMJOINTS = 2;
const K_NUMMESHES = 3;
const K_JOINTS = 4;
const K_MESH = 5;
const K_NAME = 6;
const K_SHADER = 7;
const K_NUMVERTS = 8;
const K_VERT = 9;
const K_NUMTRIS = 10;
const K_TRI = 11;
const K_NUMWEIGHTS = 12;
const K_WEIGHT = 13;
const FILE_LEVEL_LAST = K_MESH;

// Parser states (0..3: the header states H_* of parser-base).
const M_NUMJOINTS_KW = H_NEXT;
const M_NUMJOINTS = 5;
const M_NUMMESHES_KW = 6;
const M_NUMMESHES = 7;
const M_JOINTS_KW = 8;
const M_JOINTS_OPEN = 9;
const M_JOINT_NAME = 10;
const M_JOINT_PARENT = 11;
const M_JOINT_POS_OPEN = 12;
const M_JOINT_POS = 13;
const M_JOINT_POS_CLOSE = 14;
const M_JOINT_ORI_OPEN = 15;
const M_JOINT_ORI = 16;
const M_JOINT_ORI_CLOSE = 17;
const M_MESH_KW = 18;
const M_MESH_OPEN = 19;
const M_MESH_NAME_OR_SHADER = 20;
const M_MESH_NAME = 21;
const M_SHADER_KW = 22;
const M_SHADER = 23;
const M_NUMVERTS_KW = 24;
const M_NUMVERTS = 25;
const M_VERT_KW = 26;
const M_VERT_IDX = 27;
const M_VERT_UV_OPEN = 28;
const M_VERT_UV = 29;
const M_VERT_UV_CLOSE = 30;
const M_VERT_WSTART = 31;
const M_VERT_WCOUNT = 32;
const M_NUMTRIS = 33;
const M_TRI_KW = 34;
const M_TRI_IDX = 35;
const M_TRI_V = 36;
const M_NUMWEIGHTS = 37;
const M_WEIGHT_KW = 38;
const M_WEIGHT_IDX = 39;
const M_WEIGHT_JOINT = 40;
const M_WEIGHT_BIAS = 41;
const M_WEIGHT_POS_OPEN = 42;
const M_WEIGHT_POS = 43;
const M_WEIGHT_POS_CLOSE = 44;
const M_DONE = 45;

const GRAMMAR = md5Grammar({
  name: 'Md5MeshParser',
  keywords: KW,
  fileLevelLast: FILE_LEVEL_LAST,
  /** What each state wants, for messages. */
  expect: [
    "'numJoints'",
    'the joint count',
    "'numMeshes'",
    'the mesh count',
    "'joints'",
    "'{' after 'joints'",
    "a joint name or '}'",
    'the joint parent index',
    "'(' before the joint position",
    'a joint position number',
    "')' after the joint position",
    "'(' before the joint orientation",
    'a joint orientation number',
    "')' after the joint orientation",
    "'mesh' or end of input",
    "'{' after 'mesh'",
    "'name' or 'shader'",
    'the mesh name string',
    "'shader'",
    'the shader string',
    "'numverts'",
    'the vertex count',
    "'vert' or 'numtris'",
    'the vertex index',
    "'(' before the texture coordinates",
    'a texture coordinate',
    "')' after the texture coordinates",
    'the first weight index',
    'the weight count',
    'the triangle count',
    "'tri' or 'numweights'",
    'the triangle index',
    'a triangle vertex index',
    'the weight count',
    "'weight' or '}'",
    'the weight index',
    'the weight joint index',
    'the weight bias',
    "'(' before the weight position",
    'a weight position number',
    "')' after the weight position",
    'nothing (parser finished)',
  ],
  /** The keyword a state is waiting for (for MISSING_BLOCK / DUPLICATE_BLOCK). */
  waits: [
    [M_NUMJOINTS_KW, K_NUMJOINTS],
    [M_NUMMESHES_KW, K_NUMMESHES],
    [M_JOINTS_KW, K_JOINTS],
    [M_MESH_KW, K_MESH],
    [M_MESH_NAME_OR_SHADER, K_SHADER],
    [M_SHADER_KW, K_SHADER],
    [M_NUMVERTS_KW, K_NUMVERTS],
    [M_VERT_KW, K_NUMTRIS],
    [M_TRI_KW, K_NUMWEIGHTS],
    [M_WEIGHT_KW, K_WEIGHT],
  ],
  /** States whose next token is a number (a `nan`/`inf` word there is BAD_NUMBER, not UNEXPECTED_TOKEN). */
  numericStates: [
    M_NUMJOINTS, M_NUMMESHES, M_JOINT_PARENT, M_JOINT_POS, M_JOINT_ORI, M_NUMVERTS, M_VERT_IDX, M_VERT_UV,
    M_VERT_WSTART, M_VERT_WCOUNT, M_NUMTRIS, M_TRI_IDX, M_TRI_V, M_NUMWEIGHTS, M_WEIGHT_IDX, M_WEIGHT_JOINT,
    M_WEIGHT_BIAS, M_WEIGHT_POS,
  ],
});

export class Md5MeshParser extends Md5ParserBase<Md5Mesh> {
  private numMeshes = 0;
  private positions: Float32Array = new Float32Array(0);
  private orientations: Float32Array = new Float32Array(0);
  private meshes: Md5MeshPart[] = [];
  /** Mesh blocks read so far (`meshes.length` unless in mesh mode). */
  private meshCount = 0;
  private readonly onMesh: Md5MeshParserOptions['onMesh'];
  private readonly onHeader: Md5MeshParserOptions['onHeader'];

  // The mesh block being read.
  private meshName = '';
  private shader = '';
  private numVerts = 0;
  private vert = 0;
  private vertCap = 0;
  private uvs: Float32Array = new Float32Array(0);
  private wStart: Uint32Array = new Uint32Array(0);
  private wCount: Uint32Array = new Uint32Array(0);
  /** Largest weightStart + weightCount so far, and where it was written (checked when numweights arrives). */
  private maxWeightEnd = 0;
  private maxWeightVert = 0;
  private maxWeightOffset = 0;
  private maxWeightLine = 0;
  private maxWeightColumn = 0;
  private numTris = 0;
  private tri = 0;
  private triCap = 0;
  private tris: Uint32Array = new Uint32Array(0);
  private numWeights = 0;
  private weight = 0;
  private weightCap = 0;
  private wJoints: Uint32Array = new Uint32Array(0);
  private wBiases: Float32Array = new Float32Array(0);
  private wPositions: Float32Array = new Float32Array(0);

  constructor(options: Md5MeshParserOptions = {}) {
    super(GRAMMAR);
    this.onMesh = options.onMesh;
    this.onHeader = options.onHeader;
  }

  protected finish(): Md5Mesh {
    if (this.state === M_MESH_KW && this.meshCount === this.numMeshes) {
      this.state = M_DONE;
      return { format: 'md5mesh', version: this.version, commandline: this.commandline, joints: this.joints(), meshes: this.meshes };
    }
    this.endOfInput(
      this.state === M_MESH_KW,
      `numMeshes is ${this.numMeshes} but the file has ${this.meshCount} mesh block(s)`,
    );
  }

  private joints(): Md5Joints {
    return {
      count: this.numJoints,
      names: this.names,
      parents: this.parents,
      positions: this.positions,
      orientations: this.orientations,
    };
  }

  // --- token callbacks -------------------------------------------------------------------------------------

  number(v: number, integer: boolean): void {
    switch (this.state) {
      case M_VERT_UV: {
        this.uvs[this.vert * 2 + this.sub] = v;
        if (++this.sub === 2) this.state = M_VERT_UV_CLOSE;
        return;
      }
      case M_TRI_V: {
        const x = this.int(v, integer, 'triangle vertex index');
        if (x < 0 || x >= this.numVerts) {
          this.fail(ErrorCode.IndexOutOfRange, `triangle ${this.tri} vertex index ${x} outside 0..${this.numVerts - 1}`);
        }
        this.tris[this.tri * 3 + this.sub] = x;
        if (++this.sub === 3) {
          this.tri++;
          this.state = M_TRI_KW;
        }
        return;
      }
      case M_WEIGHT_POS: {
        this.wPositions[this.weight * 3 + this.sub] = v;
        if (++this.sub === 3) this.state = M_WEIGHT_POS_CLOSE;
        return;
      }
      case M_VERT_IDX: {
        this.marker(v, integer, this.vert, 'vert');
        if (this.vert === this.vertCap) {
          const cap = Math.min(this.vertCap * 2, this.numVerts);
          this.uvs = growF32(this.uvs, cap * 2);
          this.wStart = growU32(this.wStart, cap);
          this.wCount = growU32(this.wCount, cap);
          this.vertCap = cap;
        }
        this.state = M_VERT_UV_OPEN;
        return;
      }
      case M_VERT_WSTART: {
        const x = this.int(v, integer, 'vertex weight start');
        if (x < 0 || x >= LIMITS.maxWeightsPerMesh) {
          this.fail(ErrorCode.IndexOutOfRange, `vertex ${this.vert} weight start ${x} out of range`);
        }
        this.wStart[this.vert] = x;
        this.state = M_VERT_WCOUNT;
        return;
      }
      case M_VERT_WCOUNT: {
        const x = this.int(v, integer, 'vertex weight count');
        if (x < 1 || x > LIMITS.maxWeightsPerMesh) {
          this.fail(ErrorCode.IndexOutOfRange, `vertex ${this.vert} weight count ${x} outside 1..${LIMITS.maxWeightsPerMesh}`);
        }
        this.wCount[this.vert] = x;
        const end = this.wStart[this.vert] + x;
        if (end > this.maxWeightEnd) {
          this.maxWeightEnd = end;
          this.maxWeightVert = this.vert;
          this.maxWeightOffset = this.tok.tokenOffset;
          this.maxWeightLine = this.tok.tokenLine;
          this.maxWeightColumn = this.tok.tokenColumn;
        }
        this.vert++;
        this.state = M_VERT_KW;
        return;
      }
      case M_TRI_IDX: {
        this.marker(v, integer, this.tri, 'tri');
        if (this.tri === this.triCap) {
          const cap = Math.min(this.triCap * 2, this.numTris);
          this.tris = growU32(this.tris, cap * 3);
          this.triCap = cap;
        }
        this.sub = 0;
        this.state = M_TRI_V;
        return;
      }
      case M_WEIGHT_IDX: {
        this.marker(v, integer, this.weight, 'weight');
        if (this.weight === this.weightCap) {
          const cap = Math.min(this.weightCap * 2, this.numWeights);
          this.wJoints = growU32(this.wJoints, cap);
          this.wBiases = growF32(this.wBiases, cap);
          this.wPositions = growF32(this.wPositions, cap * 3);
          this.weightCap = cap;
        }
        this.state = M_WEIGHT_JOINT;
        return;
      }
      case M_WEIGHT_JOINT: {
        const x = this.int(v, integer, 'weight joint index');
        if (x < 0 || x >= this.numJoints) {
          this.fail(ErrorCode.IndexOutOfRange, `weight ${this.weight} joint index ${x} outside 0..${this.numJoints - 1}`);
        }
        this.wJoints[this.weight] = x;
        this.state = M_WEIGHT_BIAS;
        return;
      }
      case M_WEIGHT_BIAS: {
        this.wBiases[this.weight] = v;
        this.state = M_WEIGHT_POS_OPEN;
        return;
      }
      case M_JOINT_POS: {
        this.positions[this.joint * 3 + this.sub] = v;
        if (++this.sub === 3) this.state = M_JOINT_POS_CLOSE;
        return;
      }
      case M_JOINT_ORI: {
        const o = this.orientations;
        const j4 = this.joint * 4;
        o[j4 + this.sub] = v;
        if (++this.sub === 3) {
          o[j4 + 3] = recoverW(o[j4], o[j4 + 1], o[j4 + 2]);
          this.state = M_JOINT_ORI_CLOSE;
        }
        return;
      }
      case M_JOINT_PARENT: {
        this.parent(v, integer);
        this.state = M_JOINT_POS_OPEN;
        return;
      }
      case H_VERSION:
        this.versionNumber(v, integer);
        return;
      case M_NUMJOINTS: {
        const n = this.jointCount(v, integer);
        this.positions = new Float32Array(n * 3);
        this.orientations = new Float32Array(n * 4);
        this.state = M_NUMMESHES_KW;
        return;
      }
      case M_NUMMESHES: {
        this.numMeshes = this.count(v, integer, LIMITS.maxMeshes, 'numMeshes');
        this.state = M_JOINTS_KW;
        return;
      }
      case M_NUMVERTS: {
        const n = this.count(v, integer, LIMITS.maxVertsPerMesh, 'numverts');
        this.numVerts = n;
        this.vert = 0;
        this.vertCap = Math.min(n, LIMITS.initialElements);
        this.uvs = new Float32Array(this.vertCap * 2);
        this.wStart = new Uint32Array(this.vertCap);
        this.wCount = new Uint32Array(this.vertCap);
        this.maxWeightEnd = 0;
        this.state = M_VERT_KW;
        return;
      }
      case M_NUMTRIS: {
        const n = this.count(v, integer, LIMITS.maxTrisPerMesh, 'numtris');
        this.numTris = n;
        this.tri = 0;
        this.triCap = Math.min(n, LIMITS.initialElements);
        this.tris = new Uint32Array(this.triCap * 3);
        this.state = M_TRI_KW;
        return;
      }
      case M_NUMWEIGHTS: {
        const n = this.count(v, integer, LIMITS.maxWeightsPerMesh, 'numweights');
        if (this.maxWeightEnd > n) {
          const v0 = this.maxWeightVert;
          throw new ModelParseError(
            ErrorCode.IndexOutOfRange,
            `vertex ${v0} uses weights ${this.wStart[v0]}..${this.maxWeightEnd - 1} but numweights is ${n}`,
            { offset: this.maxWeightOffset, line: this.maxWeightLine, column: this.maxWeightColumn },
          );
        }
        this.numWeights = n;
        this.weight = 0;
        this.weightCap = Math.min(n, LIMITS.initialElements);
        this.wJoints = new Uint32Array(this.weightCap);
        this.wBiases = new Float32Array(this.weightCap);
        this.wPositions = new Float32Array(this.weightCap * 3);
        this.state = M_WEIGHT_KW;
        return;
      }
      default:
        this.wrongNumber(v);
    }
  }

  punct(c: number): void {
    switch (this.state) {
      case M_VERT_UV_OPEN:
      case M_JOINT_POS_OPEN:
      case M_JOINT_ORI_OPEN:
      case M_WEIGHT_POS_OPEN:
        if (c !== 0x28) break;
        this.sub = 0;
        this.state++;
        return;
      case M_VERT_UV_CLOSE:
        if (c !== 0x29) break;
        this.state = M_VERT_WSTART;
        return;
      case M_WEIGHT_POS_CLOSE:
        if (c !== 0x29) break;
        this.weight++;
        this.state = M_WEIGHT_KW;
        return;
      case M_JOINT_POS_CLOSE:
        if (c !== 0x29) break;
        this.state = M_JOINT_ORI_OPEN;
        return;
      case M_JOINT_ORI_CLOSE:
        if (c !== 0x29) break;
        this.joint++;
        this.state = M_JOINT_NAME;
        return;
      case M_JOINTS_OPEN:
      case M_MESH_OPEN:
        if (c !== 0x7b) break;
        this.state++;
        return;
      case M_JOINT_NAME:
        if (c !== 0x7d) break;
        if (this.joint !== this.numJoints) {
          this.fail(ErrorCode.BadCount, `numJoints is ${this.numJoints} but 'joints' lists ${this.joint}`);
        }
        this.state = M_MESH_KW;
        this.onHeader?.({
          format: 'md5mesh',
          version: this.version,
          commandline: this.commandline,
          joints: this.joints(),
          meshCount: this.numMeshes,
        });
        return;
      case M_WEIGHT_KW:
        if (c !== 0x7d) break;
        if (this.weight !== this.numWeights) {
          this.fail(ErrorCode.BadCount, `numweights is ${this.numWeights} but the mesh lists ${this.weight}`);
        }
        this.finishMesh();
        this.state = M_MESH_KW;
        return;
      case M_VERT_KW:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends before 'numtris'`);
        break;
      case M_TRI_KW:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends before 'numweights'`);
        break;
      case M_MESH_NAME_OR_SHADER:
      case M_SHADER_KW:
      case M_NUMVERTS_KW:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends while expecting ${GRAMMAR.expect[this.state]}`);
        break;
      default:
        break;
    }
    this.wrongPunct(c);
  }

  string(buf: Uint8Array, start: number, end: number): void {
    switch (this.state) {
      case M_JOINT_NAME: {
        if (this.joint === this.numJoints) {
          this.fail(ErrorCode.BadCount, `numJoints is ${this.numJoints} but 'joints' lists more`);
        }
        this.names.push(decodeText(buf, start, end));
        this.state = M_JOINT_PARENT;
        return;
      }
      case H_CMD:
        this.commandlineString(buf, start, end);
        return;
      case M_MESH_NAME:
        this.meshName = decodeText(buf, start, end);
        this.state = M_SHADER_KW;
        return;
      case M_SHADER:
        this.shader = decodeText(buf, start, end);
        this.state = M_NUMVERTS_KW;
        return;
      default:
        this.wrongString(buf, start, end);
    }
  }

  word(buf: Uint8Array, start: number, end: number): void {
    const k = KEYWORDS.index(buf, start, end);
    switch (this.state) {
      case M_VERT_KW:
        if (k === K_VERT) {
          if (this.vert === this.numVerts) this.fail(ErrorCode.BadCount, `more 'vert' lines than numverts ${this.numVerts}`);
          this.state = M_VERT_IDX;
          return;
        }
        if (k === K_NUMTRIS) {
          if (this.vert !== this.numVerts) {
            this.fail(ErrorCode.BadCount, `numverts is ${this.numVerts} but the mesh lists ${this.vert}`);
          }
          this.state = M_NUMTRIS;
          return;
        }
        break;
      case M_TRI_KW:
        if (k === K_TRI) {
          if (this.tri === this.numTris) this.fail(ErrorCode.BadCount, `more 'tri' lines than numtris ${this.numTris}`);
          this.state = M_TRI_IDX;
          return;
        }
        if (k === K_NUMWEIGHTS) {
          if (this.tri !== this.numTris) {
            this.fail(ErrorCode.BadCount, `numtris is ${this.numTris} but the mesh lists ${this.tri}`);
          }
          this.state = M_NUMWEIGHTS;
          return;
        }
        break;
      case M_WEIGHT_KW:
        if (k === K_WEIGHT) {
          if (this.weight === this.numWeights) {
            this.fail(ErrorCode.BadCount, `more 'weight' lines than numweights ${this.numWeights}`);
          }
          this.state = M_WEIGHT_IDX;
          return;
        }
        break;
      case H_VERSION_KW:
        this.versionWord(k, buf, start, end);
        return;
      case M_JOINTS_KW:
        if (k === K_JOINTS) {
          this.joint = 0;
          this.state = M_JOINTS_OPEN;
          return;
        }
        break;
      case M_MESH_KW:
        if (k === K_MESH) {
          if (this.meshCount === this.numMeshes) {
            this.fail(ErrorCode.BadCount, `more mesh blocks than numMeshes ${this.numMeshes}`);
          }
          this.meshName = '';
          this.shader = '';
          this.state = M_MESH_OPEN;
          return;
        }
        break;
      case M_MESH_NAME_OR_SHADER:
        if (k === K_NAME) {
          this.state = M_MESH_NAME;
          return;
        }
        if (k === K_SHADER) {
          this.state = M_SHADER;
          return;
        }
        break;
      default:
        // numJoints, numMeshes, commandline, shader, numverts: the one keyword the state waits for
        if (this.nextOnKeyword(k)) return;
        break;
    }
    this.wrongWord(k, buf, start, end);
  }

  private finishMesh(): void {
    const mesh: Md5MeshPart = {
      name: this.meshName,
      shader: this.shader,
      vertexCount: this.numVerts,
      uvs: this.uvs,
      weightStart: this.wStart,
      weightCount: this.wCount,
      triangleCount: this.numTris,
      triangles: this.tris,
      weightTotal: this.numWeights,
      weightJoints: this.wJoints,
      weightBiases: this.wBiases,
      weightPositions: this.wPositions,
    };
    this.meshCount++;
    if (this.onMesh) this.onMesh(mesh, this.meshCount - 1);
    else this.meshes.push(mesh);
  }
}

/** Parse a whole md5mesh held in memory (a string is encoded as UTF-8 first). */
export function parseMd5Mesh(input: Uint8Array | string): Md5Mesh {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const p = new Md5MeshParser();
  p.write(bytes);
  return p.end();
}
