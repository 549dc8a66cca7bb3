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
 * `vert/tri/weight N` markers (a wrong N is an INDEX_MARKER warning, as Doom 3 ignores it), parent −1 or < own index, weight joint < numJoints,
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
  Md5ParserBase,
  growF32,
  growU32,
  initialCapacity,
  inputBytes,
  md5Grammar,
  nextCapacity,
} from './parser-base.js';
import { decodeText } from '../../text/tokenizer.js';

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

/**
 * md5mesh keywords, spelled as in the file. The value doubles as the order rank: file level up to `mesh`, then
 * the mesh block's, in the order a mesh block lists them.
 */
enum Keyword {
  MD5Version,
  commandline,
  numJoints,
  numMeshes,
  joints,
  mesh,
  name,
  shader,
  numverts,
  vert,
  numtris,
  tri,
  numweights,
  weight,
}

/** md5mesh parser states, in file order; the first four are the shared header's, named as parser-base wants. */
enum State {
  VersionKw,
  Version,
  CommandlineKw,
  Commandline,
  NumJointsKw,
  NumJoints,
  NumMeshesKw,
  NumMeshes,
  JointsKw,
  JointsOpen,
  JointName,
  JointParent,
  JointPosOpen,
  JointPos,
  JointPosClose,
  JointOriOpen,
  JointOri,
  JointOriClose,
  MeshKw,
  MeshOpen,
  MeshNameOrShader,
  MeshName,
  ShaderKw,
  Shader,
  NumVertsKw,
  NumVerts,
  VertKw,
  VertIndex,
  VertUvOpen,
  VertUv,
  VertUvClose,
  VertWeightStart,
  VertWeightCount,
  NumTris,
  TriKw,
  TriIndex,
  TriVertex,
  NumWeights,
  WeightKw,
  WeightIndex,
  WeightJoint,
  WeightBias,
  WeightPosOpen,
  WeightPos,
  WeightPosClose,
  Done,
}

const GRAMMAR = md5Grammar<State>({
  name: 'Md5MeshParser',
  keywords: Keyword,
  fileLevelLast: Keyword.mesh,
  states: State,
  afterHeader: State.NumJointsKw,
  grammar: {
    [State.NumJointsKw]: { keyword: Keyword.numJoints, next: State.NumJoints },
    [State.NumJoints]: { expect: 'the joint count', numeric: true },
    [State.NumMeshesKw]: { keyword: Keyword.numMeshes, next: State.NumMeshes },
    [State.NumMeshes]: { expect: 'the mesh count', numeric: true },
    [State.JointsKw]: { keyword: Keyword.joints, next: State.JointsOpen },
    [State.JointsOpen]: { expect: "'{' after 'joints'" },
    [State.JointName]: { expect: "a joint name or '}'" },
    [State.JointParent]: { expect: 'the joint parent index', numeric: true },
    [State.JointPosOpen]: { expect: "'(' before the joint position", punct: '(', next: State.JointPos },
    [State.JointPos]: { expect: 'a joint position number', numeric: true },
    [State.JointPosClose]: { expect: "')' after the joint position", punct: ')', next: State.JointOriOpen },
    [State.JointOriOpen]: { expect: "'(' before the joint orientation", punct: '(', next: State.JointOri },
    [State.JointOri]: { expect: 'a joint orientation number', numeric: true },
    [State.JointOriClose]: { expect: "')' after the joint orientation" },
    [State.MeshKw]: { expect: "'mesh' or end of input", keyword: Keyword.mesh },
    [State.MeshOpen]: { expect: "'{' after 'mesh'", punct: '{', next: State.MeshNameOrShader },
    [State.MeshNameOrShader]: { expect: "'name' or 'shader'", keyword: Keyword.shader },
    [State.MeshName]: { expect: 'the mesh name string' },
    [State.ShaderKw]: { keyword: Keyword.shader, next: State.Shader },
    [State.Shader]: { expect: 'the shader string' },
    [State.NumVertsKw]: { keyword: Keyword.numverts, next: State.NumVerts },
    [State.NumVerts]: { expect: 'the vertex count', numeric: true },
    [State.VertKw]: { expect: "'vert' or 'numtris'", keyword: Keyword.numtris },
    [State.VertIndex]: { expect: 'the vertex index', numeric: true },
    [State.VertUvOpen]: { expect: "'(' before the texture coordinates", punct: '(', next: State.VertUv },
    [State.VertUv]: { expect: 'a texture coordinate', numeric: true },
    [State.VertUvClose]: { expect: "')' after the texture coordinates", punct: ')', next: State.VertWeightStart },
    [State.VertWeightStart]: { expect: 'the first weight index', numeric: true },
    [State.VertWeightCount]: { expect: 'the weight count', numeric: true },
    [State.NumTris]: { expect: 'the triangle count', numeric: true },
    [State.TriKw]: { expect: "'tri' or 'numweights'", keyword: Keyword.numweights },
    [State.TriIndex]: { expect: 'the triangle index', numeric: true },
    [State.TriVertex]: { expect: 'a triangle vertex index', numeric: true },
    [State.NumWeights]: { expect: 'the weight count', numeric: true },
    [State.WeightKw]: { expect: "'weight' or '}'", keyword: Keyword.weight },
    [State.WeightIndex]: { expect: 'the weight index', numeric: true },
    [State.WeightJoint]: { expect: 'the weight joint index', numeric: true },
    [State.WeightBias]: { expect: 'the weight bias', numeric: true },
    [State.WeightPosOpen]: { expect: "'(' before the weight position", punct: '(', next: State.WeightPos },
    [State.WeightPos]: { expect: 'a weight position number', numeric: true },
    [State.WeightPosClose]: { expect: "')' after the weight position" },
    [State.Done]: { expect: 'nothing (parser finished)' },
  },
});

export class Md5MeshParser extends Md5ParserBase<Md5Mesh, State> {
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
    this.blocksComplete(State.MeshKw, this.meshCount, this.numMeshes, 'numMeshes', 'mesh');
    this.state = State.Done;
    return { format: 'md5mesh', version: this.version, commandline: this.commandline, joints: this.joints(), meshes: this.meshes, warnings: this.warnings };
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
      case State.VertUv:
      case State.WeightPos: {
        // The group's window is open (punct '('): most values arrive through the tokenizer's float run; this is the
        // path for the odd one (exponent, long literal, cut by a chunk, a comment beside it). One too many: the
        // group is full, so the close state's error (expected ')') is the one reported, as before the float run.
        const run = this.floatRun;
        if (run.pos === run.end) {
          this.state = this.state === State.VertUv ? State.VertUvClose : State.WeightPosClose;
          break;
        }
        run.out[run.pos++] = v;
        return;
      }
      case State.TriVertex: {
        const x = this.int(v, integer, 'triangle vertex index');
        if (x < 0 || x >= this.numVerts) {
          this.fail(ErrorCode.IndexOutOfRange, `triangle ${this.tri} vertex index ${x} outside 0..${this.numVerts - 1}`);
        }
        this.tris[this.tri * 3 + this.sub] = x;
        if (++this.sub === 3) {
          this.tri++;
          this.state = State.TriKw;
        }
        return;
      }
      case State.VertIndex: {
        this.marker(v, integer, this.vert, 'vert');
        if (this.vert === this.vertCap) {
          const cap = nextCapacity(this.vertCap, this.numVerts);
          this.uvs = growF32(this.uvs, cap * 2);
          this.wStart = growU32(this.wStart, cap);
          this.wCount = growU32(this.wCount, cap);
          this.vertCap = cap;
        }
        this.state = State.VertUvOpen;
        return;
      }
      case State.VertWeightStart: {
        const x = this.int(v, integer, 'vertex weight start');
        if (x < 0 || x >= LIMITS.maxWeightsPerMesh) {
          this.fail(ErrorCode.IndexOutOfRange, `vertex ${this.vert} weight start ${x} out of range`);
        }
        this.wStart[this.vert] = x;
        this.state = State.VertWeightCount;
        return;
      }
      case State.VertWeightCount: {
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
        this.state = State.VertKw;
        return;
      }
      case State.TriIndex: {
        this.marker(v, integer, this.tri, 'tri');
        if (this.tri === this.triCap) {
          const cap = nextCapacity(this.triCap, this.numTris);
          this.tris = growU32(this.tris, cap * 3);
          this.triCap = cap;
        }
        this.sub = 0;
        this.state = State.TriVertex;
        return;
      }
      case State.WeightIndex: {
        this.marker(v, integer, this.weight, 'weight');
        if (this.weight === this.weightCap) {
          const cap = nextCapacity(this.weightCap, this.numWeights);
          this.wJoints = growU32(this.wJoints, cap);
          this.wBiases = growF32(this.wBiases, cap);
          this.wPositions = growF32(this.wPositions, cap * 3);
          this.weightCap = cap;
        }
        this.state = State.WeightJoint;
        return;
      }
      case State.WeightJoint: {
        const x = this.int(v, integer, 'weight joint index');
        if (x < 0 || x >= this.numJoints) {
          this.fail(ErrorCode.IndexOutOfRange, `weight ${this.weight} joint index ${x} outside 0..${this.numJoints - 1}`);
        }
        this.wJoints[this.weight] = x;
        this.state = State.WeightBias;
        return;
      }
      case State.WeightBias:
        this.wBiases[this.weight] = v;
        this.state = State.WeightPosOpen;
        return;
      case State.JointPos:
        if (this.groupValue(this.positions, this.joint * 3, 3, v)) this.state = State.JointPosClose;
        return;
      case State.JointOri: {
        const o = this.orientations;
        const j4 = this.joint * 4;
        if (this.groupValue(o, j4, 3, v)) {
          o[j4 + 3] = recoverW(o[j4], o[j4 + 1], o[j4 + 2]);
          this.state = State.JointOriClose;
        }
        return;
      }
      case State.JointParent:
        this.parent(v, integer);
        this.state = State.JointPosOpen;
        return;
      case State.NumJoints: {
        const n = this.jointCount(v, integer);
        this.positions = new Float32Array(n * 3);
        this.orientations = new Float32Array(n * 4);
        this.state = State.NumMeshesKw;
        return;
      }
      case State.NumMeshes:
        this.numMeshes = this.count(v, integer, LIMITS.maxMeshes, 'numMeshes');
        this.state = State.JointsKw;
        return;
      case State.NumVerts: {
        const n = this.count(v, integer, LIMITS.maxVertsPerMesh, 'numverts');
        this.numVerts = n;
        this.vert = 0;
        this.vertCap = initialCapacity(n);
        this.uvs = new Float32Array(this.vertCap * 2);
        this.wStart = new Uint32Array(this.vertCap);
        this.wCount = new Uint32Array(this.vertCap);
        this.maxWeightEnd = 0;
        this.state = State.VertKw;
        return;
      }
      case State.NumTris: {
        const n = this.count(v, integer, LIMITS.maxTrisPerMesh, 'numtris');
        this.numTris = n;
        this.tri = 0;
        this.triCap = initialCapacity(n);
        this.tris = new Uint32Array(this.triCap * 3);
        this.state = State.TriKw;
        return;
      }
      case State.NumWeights: {
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
        this.weightCap = initialCapacity(n);
        this.wJoints = new Uint32Array(this.weightCap);
        this.wBiases = new Float32Array(this.weightCap);
        this.wPositions = new Float32Array(this.weightCap * 3);
        this.state = State.WeightKw;
        return;
      }
    }
    this.sharedNumber(v, integer);
  }

  punct(c: number): void {
    switch (this.state) {
      // The two groups every vertex and weight has open a float-run window at '(' (what md5anim frames do for their
      // values): the tokenizer parses the plain decimals straight into the array, no callback per number.
      case State.VertUvOpen:
        if (c !== 0x28) break;
        this.openGroup(this.uvs, this.vert * 2, 2);
        this.state = State.VertUv;
        return;
      case State.WeightPosOpen:
        if (c !== 0x28) break;
        this.openGroup(this.wPositions, this.weight * 3, 3);
        this.state = State.WeightPos;
        return;
      case State.VertUv:
      case State.WeightPos:
        // ')' with the window full closes the group as the close state would; else the usual error (a number wanted).
        if (c !== 0x29 || this.floatRun.pos !== this.floatRun.end) break;
        this.state = this.state === State.VertUv ? State.VertUvClose : State.WeightPosClose;
        this.punct(c);
        return;
      case State.WeightPosClose:
        if (c !== 0x29) break;
        this.weight++;
        this.state = State.WeightKw;
        return;
      case State.JointOriClose:
        if (c !== 0x29) break;
        this.joint++;
        this.state = State.JointName;
        return;
      case State.JointsOpen:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = State.JointName;
        return;
      case State.JointName:
        if (c !== 0x7d) break;
        this.listComplete(this.joint, this.numJoints, 'numJoints', "'joints'");
        this.state = State.MeshKw;
        this.onHeader?.({
          format: 'md5mesh',
          version: this.version,
          commandline: this.commandline,
          joints: this.joints(),
          meshCount: this.numMeshes,
          warnings: this.warnings, // the parser's own list: complete once every mesh has been read
        });
        return;
      case State.WeightKw:
        if (c !== 0x7d) break;
        this.listComplete(this.weight, this.numWeights, 'numweights', 'the mesh');
        this.finishMesh();
        this.state = State.MeshKw;
        return;
      case State.VertKw:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends before 'numtris'`);
        break;
      case State.TriKw:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends before 'numweights'`);
        break;
      case State.MeshNameOrShader:
      case State.ShaderKw:
      case State.NumVertsKw:
        if (c === 0x7d) this.fail(ErrorCode.MissingBlock, `mesh block ends while expecting ${GRAMMAR.expect[this.state]}`);
        break;
    }
    this.sharedPunct(c);
  }

  string(buf: Uint8Array, start: number, end: number): void {
    switch (this.state) {
      case State.JointName:
        if (this.joint === this.numJoints) {
          this.fail(ErrorCode.BadCount, `numJoints is ${this.numJoints} but 'joints' lists more`);
        }
        this.names.push(decodeText(buf, start, end));
        this.state = State.JointParent;
        return;
      case State.MeshName:
        this.meshName = decodeText(buf, start, end);
        this.state = State.ShaderKw;
        return;
      case State.Shader:
        this.shader = decodeText(buf, start, end);
        this.state = State.NumVertsKw;
        return;
    }
    this.sharedString(buf, start, end);
  }

  word(buf: Uint8Array, start: number, end: number): void {
    const k = this.keywordOf(buf, start, end);
    switch (this.state) {
      case State.VertKw:
        if (k === Keyword.vert) {
          this.listHasRoom(this.vert, this.numVerts, "'vert' lines", 'numverts');
          this.state = State.VertIndex;
          return;
        }
        if (k === Keyword.numtris) {
          this.listComplete(this.vert, this.numVerts, 'numverts', 'the mesh');
          this.state = State.NumTris;
          return;
        }
        break;
      case State.TriKw:
        if (k === Keyword.tri) {
          this.listHasRoom(this.tri, this.numTris, "'tri' lines", 'numtris');
          this.state = State.TriIndex;
          return;
        }
        if (k === Keyword.numweights) {
          this.listComplete(this.tri, this.numTris, 'numtris', 'the mesh');
          this.state = State.NumWeights;
          return;
        }
        break;
      case State.WeightKw:
        if (k === Keyword.weight) {
          this.listHasRoom(this.weight, this.numWeights, "'weight' lines", 'numweights');
          this.state = State.WeightIndex;
          return;
        }
        break;
      case State.MeshKw:
        if (k === Keyword.mesh) {
          this.listHasRoom(this.meshCount, this.numMeshes, 'mesh blocks', 'numMeshes');
          this.meshName = '';
          this.shader = '';
          this.state = State.MeshOpen;
          return;
        }
        break;
      case State.MeshNameOrShader:
        if (k === Keyword.name) {
          this.state = State.MeshName;
          return;
        }
        if (k === Keyword.shader) {
          this.state = State.Shader;
          return;
        }
        break;
    }
    this.sharedWord(k, buf, start, end);
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
  const p = new Md5MeshParser();
  p.write(inputBytes(input));
  return p.end();
}
