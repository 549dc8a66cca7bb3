/**
 * The side panel's "Textures" section: every image of the model at full size (each in its own scrolling frame),
 * with its path, size and what uses it, and a PNG of it to save — the decoded pixels encoded as they are
 * (`encodePng`: exact, alpha kept), a PNG file as it is, a JPEG through a canvas. Images come from the worker
 * (`images` request), decoded there by the image floor; an image picked in the file tree shows here too.
 */
import { encodePng } from 'idtech-models/textures';
import type { ViewedImage } from './protocol.js';
import { download, el } from './text.js';

export async function drawInto(canvas: HTMLCanvasElement, img: ViewedImage): Promise<void> {
  canvas.width = img.width;
  canvas.height = img.height;
  const ctx = canvas.getContext('2d')!;
  if (img.rgba) ctx.putImageData(new ImageData(new Uint8ClampedArray(img.rgba.buffer as ArrayBuffer, img.rgba.byteOffset, img.rgba.byteLength), img.width, img.height), 0, 0);
  else if (img.bytes) ctx.drawImage(await createImageBitmap(new Blob([img.bytes as Uint8Array<ArrayBuffer>], { type: img.mimeType })), 0, 0);
}

/** The image as a PNG file's bytes. */
async function pngOf(img: ViewedImage, canvas: HTMLCanvasElement): Promise<Blob> {
  if (img.rgba) return new Blob([encodePng(img.rgba, img.width, img.height) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
  if (img.bytes && img.mimeType === 'image/png') return new Blob([img.bytes as Uint8Array<ArrayBuffer>], { type: 'image/png' });
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('no PNG from the canvas'))), 'image/png'));
}

const baseName = (path: string) => path.replace(/^.*\//, '').replace(/\.[^.]*$/, '');

export async function showImages(root: HTMLElement, images: readonly ViewedImage[], missing: readonly string[]): Promise<void> {
  const items: HTMLElement[] = [];
  for (const img of images) {
    const fig = el('figure', '', { class: 'texture' });
    fig.dataset.path = img.path;
    const cap = el('figcaption');
    cap.append(el('span', img.path, { class: 'path' }), ` ${img.width}×${img.height}${img.bytes ? ` ${img.mimeType}` : ''}`, el('br'), el('span', img.uses.join('; '), { class: 'small' }));
    fig.append(cap);
    if (img.error) {
      fig.append(el('p', img.error, { class: 'bad' }));
      items.push(fig);
      continue;
    }
    const frame = el('div', '', { class: 'full' });
    const canvas = el('canvas', '', { 'aria-label': `${img.path} at full size`, role: 'img' });
    frame.append(canvas);
    const save = el('button', `Save ${baseName(img.path)}.png`, { type: 'button' });
    save.addEventListener('click', async () => download(await pngOf(img, canvas), `${baseName(img.path)}.png`));
    fig.append(frame, save);
    items.push(fig);
    await drawInto(canvas, img);
  }
  if (missing.length) {
    const ul = el('ul', '', { class: 'small' });
    for (const m of missing) ul.append(el('li', m, { class: 'bad' }));
    items.push(el('h4', 'not found'), ul);
  }
  if (!items.length) items.push(el('p', 'no images', { class: 'small' }));
  root.replaceChildren(...items);
  root.dataset.images = String(images.length);
}


/** What the UV layout draws over an image: the triangles of the surfaces that use it, in their texture coordinates. */
export interface LayoutSource {
  triangles: Uint16Array | Uint32Array;
  /** s, t per vertex (t down, the image's top row at t = 0), as the file has them. */
  st: Float32Array;
}

/**
 * The UV layout over each image of `root` (on) or none (off): every triangle of the surfaces that use it drawn as
 * lines in the image's pixels (s · width, t · height; coordinates past 0–1 wrap, as a repeating texture does), on a
 * canvas of the image's size over it. `figure[data-uv-triangles]` says how many were drawn.
 */
export function showUvLayout(root: HTMLElement, on: boolean, sourcesOf: (path: string) => LayoutSource[]): void {
  for (const fig of root.querySelectorAll<HTMLElement>('figure.texture')) {
    fig.querySelector('canvas.uv-layout')?.remove();
    delete fig.dataset.uvTriangles;
    const image = fig.querySelector<HTMLCanvasElement>('.full canvas');
    if (!on || !image) continue;
    const w = image.width, h = image.height;
    const layout = el('canvas', '', { class: 'uv-layout', 'aria-label': `UV layout over ${fig.dataset.path}`, role: 'img' });
    layout.width = w;
    layout.height = h;
    const ctx = layout.getContext('2d')!;
    ctx.strokeStyle = 'rgb(255, 230, 0)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    let drawn = 0;
    const wrap = (x: number) => x - Math.floor(x);
    for (const { triangles, st } of sourcesOf(fig.dataset.path!)) {
      for (let i = 0; i + 2 < triangles.length; i += 3) {
        // a triangle lies where its first corner wraps to; the others keep their distance from it
        const s0 = st[triangles[i] * 2], t0 = st[triangles[i] * 2 + 1];
        const ds = wrap(s0) - s0, dt = wrap(t0) - t0;
        for (let c = 0; c < 3; c++) {
          const v = triangles[i + c];
          const x = (st[v * 2] + ds) * w, y = (st[v * 2 + 1] + dt) * h;
          if (c === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        }
        ctx.closePath();
        drawn++;
      }
    }
    ctx.stroke();
    image.after(layout);
    fig.dataset.uvTriangles = String(drawn);
  }
}
