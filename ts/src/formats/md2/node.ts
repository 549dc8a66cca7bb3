/** MD2 files from paths in Node. */
import { readingFile } from '../../base/errors.js';
import type { ReadOptions } from '../../base/source.js';
import { fileChunks, pathText } from '../../load/node.js';
import type { Md2Model } from '../../base/model.js';
import { parseMd2Stream } from './stream.js';

/** An MD2 file, streamed: only its header and then its declared ofs_end bytes are ever held. */
export function loadMd2(path: string | URL, options?: ReadOptions): Promise<Md2Model> {
  return readingFile(pathText(path), () => parseMd2Stream(fileChunks(path), options));
}
