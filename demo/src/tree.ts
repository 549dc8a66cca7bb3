/**
 * The mounted file system as an ARIA tree (`role="tree"` of `treeitem`s, each named by its path, folders with
 * `aria-expanded`, one tab stop moved by the arrow keys, Home and End; Enter or Space opens): archives as folders
 * holding their members by path, loose files at the top, models marked by their format (the registry's id, its
 * title on hover; a folder format's folder — a Quake 3 player — marked as one), and a filter by name. Children are
 * made when a folder opens, so a game folder of many thousands of files costs what is on screen.
 */
import type { FormatInfo, Listing, ModelEntry } from './protocol.js';
import { sizeText } from './text.js';

export interface TreeNode {
  /** A file's (or a folder's) path in the mounted file system; an archive's own name. */
  path: string;
  name: string;
  kind: 'archive' | 'folder' | 'file';
  /** The accessible name: a file's path, a folder's with a trailing '/', an archive's name. */
  label: string;
  children: TreeNode[];
  parent: TreeNode | null;
  size: number;
  /** The model it opens as (a model file, a folder format's folder), with its format. */
  model?: ModelEntry;
  format?: FormatInfo;
  /** An animation file (a format whose role is `animation`: an md5anim): picked, it plays on the open model. */
  animation?: boolean;
  expanded: boolean;
}

const IMAGE = /\.(tga|jpe?g|png|pcx|bmp|dds)$/i;
export const isImage = (path: string) => IMAGE.test(path);


/** The tree of a listing. */
export function buildTree(listing: Listing, formats: readonly FormatInfo[]): TreeNode {
  const root: TreeNode = { path: '', name: listing.name, kind: 'folder', label: '', children: [], parent: null, size: 0, expanded: true };
  const layerRoots = listing.layers.map((l) => {
    if (l.kind === 'loose') return root;
    const node: TreeNode = { path: l.name, name: l.name, kind: 'archive', label: l.name, children: [], parent: root, size: 0, expanded: false };
    return node;
  });
  const folders = new Map<string, TreeNode>();
  const folderNode = (layer: number, parent: TreeNode, path: string, name: string): TreeNode => {
    const key = `${layer}\u0000${path.toLowerCase()}`;
    let f = folders.get(key);
    if (!f) {
      f = { path, name, kind: 'folder', label: `${path}/`, children: [], parent, size: 0, expanded: false };
      folders.set(key, f);
      parent.children.push(f);
    }
    return f;
  };
  const models = new Map(listing.models.map((m) => [m.path.toLowerCase(), m]));
  const byId = new Map(formats.map((f) => [f.id, f]));
  const layerOfPath = new Map(listing.files.map((f) => [f.path.toLowerCase(), f.layer]));
  const animationFormat = (path: string) => formats.find((f) => f.role === 'animation' && f.extensions.some((x) => path.toLowerCase().endsWith(x)));
  for (const f of listing.files) {
    let parent = layerRoots[f.layer] ?? root;
    const parts = f.path.split('/');
    for (let i = 0; i < parts.length - 1; i++) parent = folderNode(f.layer, parent, parts.slice(0, i + 1).join('/'), parts[i]);
    const model = models.get(f.path.toLowerCase());
    const anim = model ? undefined : animationFormat(f.path);
    parent.children.push({ path: f.path, name: parts[parts.length - 1], kind: 'file', label: f.path, children: [], parent, size: f.size, expanded: false, ...(model ? { model, format: byId.get(model.kind) } : anim ? { format: anim, animation: true } : {}) });
  }
  // a folder format's folder is a model of its own (in the layer its first file is in)
  for (const m of listing.models) {
    if (!byId.get(m.kind)?.folder) continue;
    const layer = layerOfPath.get((m.files[0] ?? '').toLowerCase()) ?? 0;
    const node = folders.get(`${layer}\u0000${m.path.toLowerCase()}`);
    if (node) Object.assign(node, { model: m, format: byId.get(m.kind) });
  }
  for (const r of layerRoots) if (r !== root) root.children.push(r);
  const sort = (n: TreeNode) => {
    n.children.sort((a, b) => (a.kind === 'file') !== (b.kind === 'file') ? (a.kind === 'file' ? 1 : -1) : a.name.localeCompare(b.name));
    let size = 0;
    for (const c of n.children) size += c.kind === 'file' ? c.size : sort(c);
    n.size = size;
    return size;
  };
  sort(root);
  // archives last, in the engine's order (as listed: highest precedence first)
  root.children.sort((a, b) => (a.kind === 'archive' ? 1 : 0) - (b.kind === 'archive' ? 1 : 0) || (a.kind === 'archive' && b.kind === 'archive' ? layerRoots.indexOf(a) - layerRoots.indexOf(b) : 0));
  return root;
}

export class FileTree {
  private root: TreeNode | null = null;
  private filter = '';
  private focused: TreeNode | null = null;
  private selected: TreeNode | null = null;
  private readonly elements = new Map<TreeNode, HTMLElement>();
  /** The filter's matches and their folders, or null (no filter). */
  private shown: Set<TreeNode> | null = null;
  /** At most this many matches are shown (the count says how many there are). */
  private static readonly MAX_MATCHES = 2000;

  constructor(
    private readonly el: HTMLElement,
    private readonly note: HTMLElement,
    private readonly onOpen: (node: TreeNode) => void,
  ) {
    el.setAttribute('role', 'tree');
    el.addEventListener('keydown', (e) => this.key(e));
  }

  /** A new listing (or none), shown with `filter` (what was typed for the listing before does not apply to it). */
  set(root: TreeNode | null, filter = this.filter): void {
    this.root = root;
    this.focused = this.selected = null;
    this.applyFilter(filter);
  }

  applyFilter(text: string): void {
    this.filter = text.trim().toLowerCase();
    this.shown = null;
    let note = '';
    if (this.root && this.filter) {
      const shown = (this.shown = new Set<TreeNode>());
      let matches = 0;
      const visit = (n: TreeNode) => {
        for (const c of n.children) {
          // a file or a model by its path, a folder or an archive by its name
          if ((c.kind === 'file' || c.model ? c.path : c.name).toLowerCase().includes(this.filter)) {
            if (++matches <= FileTree.MAX_MATCHES) for (let p: TreeNode | null = c; p && p !== this.root; p = p.parent) shown.add(p);
          }
          if (c.children.length) visit(c);
        }
      };
      visit(this.root);
      note = matches > FileTree.MAX_MATCHES ? `${matches} matches, the first ${FileTree.MAX_MATCHES} shown` : `${matches} ${matches === 1 ? 'match' : 'matches'}`;
    }
    this.note.textContent = note;
    this.render();
  }

  private visibleChildren(n: TreeNode): TreeNode[] {
    return this.shown ? n.children.filter((c) => this.shown!.has(c)) : n.children;
  }

  private isOpen(n: TreeNode): boolean {
    return this.shown ? true : n.expanded;
  }

  private render(): void {
    this.elements.clear();
    const items = this.root ? this.visibleChildren(this.root).map((c) => this.item(c, 1)) : [];
    this.el.replaceChildren(...items);
    if (!this.focused || !this.elements.has(this.focused)) this.focused = this.visible()[0] ?? null;
    this.updateTabStop();
  }

  private item(n: TreeNode, level: number): HTMLElement {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-label', n.label);
    li.setAttribute('aria-level', String(level));
    li.tabIndex = -1;
    li.dataset.kind = n.kind;
    if (n === this.selected) li.setAttribute('aria-selected', 'true');
    const row = document.createElement('span');
    row.className = 'row';
    row.style.paddingLeft = `${(level - 1) * 14 + 4}px`;
    const twisty = document.createElement('span');
    twisty.className = 'twisty';
    twisty.setAttribute('aria-hidden', 'true');
    const open = this.isOpen(n);
    if (n.children.length) twisty.textContent = open ? '▾' : '▸';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = n.name;
    row.append(twisty, name);
    if (n.format) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = n.format.id;
      badge.title = n.format.title;
      row.append(badge);
      li.dataset.format = n.format.id;
      li.title = n.animation ? `${n.format.title}: ${n.path} — pick it to play it on the open model` : `${n.format.title}: ${n.path}`;
      if (n.animation) li.dataset.animation = 'true';
    } else if (n.kind === 'file' && isImage(n.path)) li.dataset.image = 'true';
    const size = document.createElement('span');
    size.className = 'size';
    size.textContent = n.size ? sizeText(n.size) : '';
    row.append(size);
    li.append(row);
    row.addEventListener('click', () => {
      this.focus(n);
      this.activate(n);
    });
    if (n.children.length) {
      li.setAttribute('aria-expanded', String(open));
      if (open) {
        const ul = document.createElement('ul');
        ul.setAttribute('role', 'group');
        ul.append(...this.visibleChildren(n).map((c) => this.item(c, level + 1)));
        li.append(ul);
      }
    }
    this.elements.set(n, li);
    return li;
  }

  /** Items in display order. */
  private visible(): TreeNode[] {
    const out: TreeNode[] = [];
    const walk = (n: TreeNode) => {
      for (const c of this.visibleChildren(n)) {
        out.push(c);
        if (c.children.length && this.isOpen(c)) walk(c);
      }
    };
    if (this.root) walk(this.root);
    return out;
  }

  private updateTabStop(): void {
    for (const [n, el] of this.elements) el.tabIndex = n === this.focused ? 0 : -1;
  }

  private focus(n: TreeNode | undefined | null): void {
    if (!n) return;
    this.focused = n;
    this.updateTabStop();
    this.elements.get(n)?.focus();
  }

  private toggle(n: TreeNode, open: boolean): void {
    if (!n.children.length || this.shown || n.expanded === open) return;
    n.expanded = open;
    this.render();
    this.focus(n);
  }

  /** A model opens; an animation plays on the open model; an image shows; a folder opens or closes. */
  private activate(n: TreeNode): void {
    if (n.model || n.animation || (n.kind === 'file' && isImage(n.path))) this.onOpen(n);
    if (n.model) this.select(n);
    else if (n.children.length) this.toggle(n, !n.expanded);
  }

  /** Marks `n` as the open model and shows it (its folders opened). */
  select(n: TreeNode | null): void {
    this.selected = n;
    let changed = false;
    for (let p = n?.parent ?? null; p; p = p.parent) {
      if (p.expanded) continue;
      p.expanded = true;
      changed = true;
    }
    if (changed || n) this.render();
    if (n) this.elements.get(n)?.scrollIntoView({ block: 'nearest' });
  }

  /** The first node `predicate` holds for, depth first. */
  find(predicate: (n: TreeNode) => boolean): TreeNode | null {
    const walk = (n: TreeNode): TreeNode | null => {
      for (const c of n.children) {
        if (predicate(c)) return c;
        const inner = walk(c);
        if (inner) return inner;
      }
      return null;
    };
    return this.root ? walk(this.root) : null;
  }

  private key(e: KeyboardEvent): void {
    const list = this.visible();
    const at = this.focused ? list.indexOf(this.focused) : -1;
    const n = this.focused;
    switch (e.key) {
      case 'ArrowDown':
        this.focus(list[Math.min(list.length - 1, at + 1)]);
        break;
      case 'ArrowUp':
        this.focus(list[Math.max(0, at - 1)]);
        break;
      case 'Home':
        this.focus(list[0]);
        break;
      case 'End':
        this.focus(list[list.length - 1]);
        break;
      case 'ArrowRight':
        if (n?.children.length) {
          if (!this.isOpen(n)) this.toggle(n, true);
          else this.focus(this.visibleChildren(n)[0]);
        }
        break;
      case 'ArrowLeft':
        if (n?.children.length && this.isOpen(n) && !this.shown) this.toggle(n, false);
        else if (n?.parent && n.parent !== this.root) this.focus(n.parent);
        break;
      case 'Enter':
      case ' ':
        if (n) this.activate(n);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
}
