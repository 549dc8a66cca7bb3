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
 * Speed: the element lines' integers go through the tokenizer's index run (see the windows below, and
 * docs/streaming.md), their `( … )` groups through its float run; a clean line costs one to three callbacks.
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
  IndexWindow,
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
  /** Reads the window `vertIndex` (the vertex's marker). */
  VertIndex,
  VertUvOpen,
  VertUv,
  VertUvClose,
  /** Reads the window `vertWeights` (its first weight and weight count). */
  VertWeights,
  NumTris,
  TriKw,
  /** Reads the window `triIndices` (the triangle's marker and vertex indices). */
  TriIndices,
  NumWeights,
  WeightKw,
  /** Reads the window `weightIndices` (the weight's marker and joint index). */
  WeightIndices,
  WeightBias,
  WeightPosOpen,
  WeightPos,
  WeightPosClose,
  Done,
}

const GRAMMAR = /* @__PURE__ */ md5Grammar<State>({
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
    [State.VertUvOpen]: { expect: "'(' before the texture coordinates", punct: '(' },
    [State.VertUv]: { expect: 'a texture coordinate', numeric: true },
    [State.VertUvClose]: { expect: "')' after the texture coordinates", punct: ')' },
    [State.VertWeights]: { expect: 'the first weight index', numeric: true },
    [State.NumTris]: { expect: 'the triangle count', numeric: true },
    [State.TriKw]: { expect: "'tri' or 'numweights'", keyword: Keyword.numweights },
    [State.TriIndices]: { expect: 'the triangle index', numeric: true },
    [State.NumWeights]: { expect: 'the weight count', numeric: true },
    [State.WeightKw]: { expect: "'weight' or '}'", keyword: Keyword.weight },
    [State.WeightIndices]: { expect: 'the weight index', numeric: true },
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
  // The element lines' integers, read as index windows (see IndexWindow): `vert N`, then after its '( u v )' the
  // weight start and count, `tri N a b c`, `weight N joint`. The tokenizer's run takes the markers equal to the
  // element's position and the indices in range without a callback; any other value reaches number() in the
  // window's state, which warns or refuses at the value's own position. The one check left for later is a weight
  // count of 0 (vertexRead), at the position the run recorded.
  private readonly vertIndex = new IndexWindow(['the vertex index'], true);
  private readonly vertWeights = new IndexWindow(['the first weight index', 'the weight count'], false);
  private readonly triIndices = new IndexWindow(['the triangle index', 'a triangle vertex index', 'a triangle vertex index', 'a triangle vertex index'], true);
  private readonly weightIndices = new IndexWindow(['the weight index', 'the weight joint index'], true);
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
      // The window states: a value the index run did not take (a marker that is not the element's position, an index
      // out of range, a literal cut by a chunk or beside a comment), checked here at its own position and stored. A
      // number once the window is full goes on to sharedNumber, which completes the element and offers it again.
      case State.VertIndex:
        if (this.indexRun.pos === this.indexRun.end) break;
        this.marker(v, integer, this.vert, 'vert');
        this.windowValue(v);
        return;
      case State.VertWeights: {
        const run = this.indexRun;
        if (run.pos === run.end) break;
        if (run.pos === 0) {
          const x = this.int(v, integer, 'vertex weight start');
          if (x < 0 || x >= LIMITS.maxWeightsPerMesh) {
            this.fail(ErrorCode.IndexOutOfRange, `vertex ${this.vert} weight start ${x} out of range`);
          }
        } else {
          const x = this.int(v, integer, 'vertex weight count');
          if (x < 1 || x > LIMITS.maxWeightsPerMesh) {
            this.fail(ErrorCode.IndexOutOfRange, `vertex ${this.vert} weight count ${x} outside 1..${LIMITS.maxWeightsPerMesh}`);
          }
        }
        this.windowValue(v);
        return;
      }
      case State.TriIndices:
        if (this.indexRun.pos === this.indexRun.end) break;
        this.markedValue(v, integer, 'tri', this.tri, 'triangle', 'vertex index', this.numVerts);
        return;
      case State.WeightIndices:
        if (this.indexRun.pos !== this.indexRun.end) {
          this.markedValue(v, integer, 'weight', this.weight, 'weight', 'joint index', this.numJoints);
          return;
        }
        this.weightIndicesRead();
      // falls through: the number after the weight's indices is its bias
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
      // values): the tokenizer parses the plain decimals straight into the array, no callback per number. A ')' with
      // the group full closes it as the close state would; else the usual error (a number wanted).
      case State.VertIndex:
        if (!this.windowFull()) break;
        this.state = State.VertUvOpen;
      // falls through: the vertex index is read
      case State.VertUvOpen:
        if (c !== 0x28) break;
        this.openGroup(this.uvs, this.vert * 2, 2);
        this.state = State.VertUv;
        return;
      case State.VertUv:
        if (c !== 0x29 || this.floatRun.pos !== this.floatRun.end) break;
        this.state = State.VertUvClose;
      // falls through
      case State.VertUvClose:
        if (c !== 0x29) break;
        this.openWindow(this.vertWeights, State.VertWeights, 0, LIMITS.maxWeightsPerMesh);
        return;
      case State.WeightPosOpen:
        if (c !== 0x28) break;
        this.openGroup(this.wPositions, this.weight * 3, 3);
        this.state = State.WeightPos;
        return;
      case State.WeightPos:
        if (c !== 0x29 || this.floatRun.pos !== this.floatRun.end) break;
        this.state = State.WeightPosClose;
      // falls through
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
      // The next element's keyword completes the element whose window the index run filled (the common case).
      case State.VertWeights:
        if (!this.windowFull()) break;
        this.vertexRead();
      // falls through: the vertex is read
      case State.VertKw:
        if (k === Keyword.vert) {
          this.listHasRoom(this.vert, this.numVerts, "'vert' lines", 'numverts');
          if (this.vert === this.vertCap) {
            const cap = nextCapacity(this.vertCap, this.numVerts);
            this.uvs = growF32(this.uvs, cap * 2);
            this.wStart = growU32(this.wStart, cap);
            this.wCount = growU32(this.wCount, cap);
            this.vertCap = cap;
          }
          this.openWindow(this.vertIndex, State.VertIndex, this.vert, 0);
          return;
        }
        if (k === Keyword.numtris) {
          this.listComplete(this.vert, this.numVerts, 'numverts', 'the mesh');
          this.state = State.NumTris;
          return;
        }
        break;
      case State.TriIndices:
        if (!this.windowFull()) break;
        this.triangleRead();
      // falls through: the triangle is read
      case State.TriKw:
        if (k === Keyword.tri) {
          this.listHasRoom(this.tri, this.numTris, "'tri' lines", 'numtris');
          if (this.tri === this.triCap) {
            const cap = nextCapacity(this.triCap, this.numTris);
            this.tris = growU32(this.tris, cap * 3);
            this.triCap = cap;
          }
          this.openWindow(this.triIndices, State.TriIndices, this.tri, this.numVerts);
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
          if (this.weight === this.weightCap) {
            const cap = nextCapacity(this.weightCap, this.numWeights);
            this.wJoints = growU32(this.wJoints, cap);
            this.wBiases = growF32(this.wBiases, cap);
            this.wPositions = growF32(this.wPositions, cap * 3);
            this.weightCap = cap;
          }
          this.openWindow(this.weightIndices, State.WeightIndices, this.weight, this.numJoints);
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

  /**
   * A value of a marked window (`tri N a b c`, `weight N joint`) that the index run did not take: in slot 0 the
   * marker (`markerWord N`: a warning unless N is the element's position `at`), in the others an index below
   * `count` ("triangle 3 vertex index 9 outside 0..7"). Stored either way.
   */
  private markedValue(v: number, integer: boolean, markerWord: string, at: number, element: string, index: string, count: number): void {
    if (this.indexRun.pos === 0) {
      this.marker(v, integer, at, markerWord);
    } else {
      const x = this.int(v, integer, `${element} ${index}`);
      if (x < 0 || x >= count) this.fail(ErrorCode.IndexOutOfRange, `${element} ${at} ${index} ${x} outside 0..${count - 1}`);
    }
    this.windowValue(v);
  }

  protected override windowRead(): void {
    switch (this.state) {
      case State.VertIndex:
        this.state = State.VertUvOpen;
        return;
      case State.VertWeights:
        this.vertexRead();
        return;
      case State.TriIndices:
        this.triangleRead();
        return;
      case State.WeightIndices:
        this.weightIndicesRead();
        return;
    }
  }

  /**
   * The vertex's weight start and count are in: a count of 0 refused (the run takes it, as an index below the limit),
   * both stored, the largest end so far remembered with the position of its count (the window's last value) for the
   * numweights check, and the next 'vert' awaited.
   */
  private vertexRead(): void {
    const range = this.vertWeights.values;
    const run = this.indexRun;
    const v = this.vert;
    const start = range[0];
    const count = range[1];
    if (count === 0) {
      const at = { offset: run.lastOffset, line: run.lastLine, column: run.lastColumn };
      throw new ModelParseError(ErrorCode.IndexOutOfRange, `vertex ${v} weight count 0 outside 1..${LIMITS.maxWeightsPerMesh}`, at);
    }
    this.wStart[v] = start;
    this.wCount[v] = count;
    const end = start + count;
    if (end > this.maxWeightEnd) {
      this.maxWeightEnd = end;
      this.maxWeightVert = v;
      this.maxWeightOffset = run.lastOffset;
      this.maxWeightLine = run.lastLine;
      this.maxWeightColumn = run.lastColumn;
    }
    this.vert = v + 1;
    this.state = State.VertKw;
  }

  /** The triangle's three vertex indices are in: stored, and the next 'tri' awaited. */
  private triangleRead(): void {
    const t = this.triIndices.values;
    const at = this.tri * 3;
    this.tris[at] = t[1];
    this.tris[at + 1] = t[2];
    this.tris[at + 2] = t[3];
    this.tri++;
    this.state = State.TriKw;
  }

  /** The weight's joint index is in: stored, and its bias awaited. */
  private weightIndicesRead(): void {
    this.wJoints[this.weight] = this.weightIndices.values[1];
    this.state = State.WeightBias;
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
