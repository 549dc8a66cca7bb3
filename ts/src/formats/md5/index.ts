/** MD5 (Doom 3) text formats: incremental tokenizer and push-driven md5mesh / md5anim parsers. */
export { Md5MeshParser, parseMd5Mesh, type Md5MeshHeader, type Md5MeshParserOptions } from './mesh.js';
export { recoverW } from '../../base/quat.js';
export { Md5AnimParser, parseMd5Anim, type Md5AnimHeader, type Md5AnimParserOptions } from './anim.js';
export { forEachMd5AnimFrame, openMd5AnimFrames, type FrameStreamOptions, type Md5AnimFrame, type Md5AnimFrameReader } from './frame-stream.js';
export { openMd5Meshes, type Md5MeshReader } from './mesh-stream.js';
export { parseMd5AnimStream, parseMd5MeshStream } from './stream.js';
export type { ElementReader } from './pull.js';
export { Md5Tokenizer, decodeText, type FloatRun, type IndexRun, type Md5TokenSink } from '../../text/tokenizer.js';
export { parseDecimal, parseDecimalInto, type DecimalResult } from '../../text/number.js';
export { LIMITS } from './limits.js';
