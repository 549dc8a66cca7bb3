/**
 * The animation bar: a clip list per channel (one for most models; a Quake 3 player's legs and torso each have
 * theirs), each clip with its frame count and rate; play / pause; the frame scrubber (a `slider` whose value text
 * says the frame number and name); speed; loop; interpolation; and the spin a model's engine gives it. It drives an
 * `Animator` and shows its state.
 */
import type { Animator } from './animation.js';
import type { ClipRow } from './clips.js';
import { el } from './text.js';

const titleCase = (s: string) => (s === 'all' ? 'Clip' : s[0].toUpperCase() + s.slice(1));

function clipText(r: ClipRow): string {
  const rate = r.rate !== null ? `${r.rate} fps` : 'own intervals';
  return `${r.name} — ${r.frameCount} ${r.frameCount === 1 ? 'frame' : 'frames'}, ${rate}${r.loop === 'once' ? ', plays once' : ''}`;
}

export class AnimationPanel {
  private readonly channels: HTMLElement;
  private readonly play: HTMLButtonElement;
  private readonly scrub: HTMLInputElement;
  private readonly frameText: HTMLOutputElement;
  private readonly loop: HTMLInputElement;
  private readonly interpolate: HTMLInputElement;
  private readonly speed: HTMLSelectElement;
  private readonly spin: HTMLElement;
  private shownKey = -1;
  private shownPrimary: string | null = null;

  constructor(
    root: HTMLElement,
    private readonly animator: Animator,
  ) {
    const q = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
    this.channels = q('#channels');
    this.play = q('#play');
    this.scrub = q('#scrub');
    this.frameText = q('#frame-text');
    this.loop = q('#loop');
    this.interpolate = q('#interpolate');
    this.speed = q('#speed');
    this.spin = q('#spin');
    this.play.addEventListener('click', () => this.setPlaying(animator.paused));
    this.scrub.addEventListener('input', () => {
      animator.scrub(Number(this.scrub.value));
      this.refresh();
    });
    this.loop.addEventListener('change', () => animator.setLoop(this.loop.checked));
    this.interpolate.addEventListener('change', () => animator.setInterpolation(this.interpolate.checked));
    this.speed.addEventListener('change', () => (animator.speed = Number(this.speed.value)));
  }

  setPlaying(on: boolean): void {
    this.animator.paused = !on;
    this.refresh();
  }

  /** A new model's clips. */
  rebuild(): void {
    const a = this.animator;
    const selects = a.rows.length
      ? a.channels.map((ch) => {
          const rows = a.rows.filter((r) => r.channels.length === 0 || r.channels.includes(ch));
          const select = el('select', '', { 'data-channel': ch });
          select.append(...rows.map((r) => new Option(clipText(r), r.name)));
          select.addEventListener('change', () => {
            a.pick(select.value);
            a.paused = false;
            this.refresh(true);
          });
          const label = el('label', `${titleCase(ch)} `);
          label.append(select);
          return label;
        })
      : a.model
        ? [el('span', 'no clips: a still model', { class: 'small' })]
        : [];
    this.channels.replaceChildren(...selects);
    this.refresh(true);
  }

  /** Shows the animator's state (each display frame: cheap when nothing changed). */
  refresh(all = false): void {
    const a = this.animator;
    this.play.setAttribute('aria-pressed', String(!a.paused));
    this.play.textContent = a.paused ? '▶ Play' : '❚❚ Play';
    const row = a.row(a.primary);
    if (all || a.primary !== this.shownPrimary) {
      this.shownPrimary = a.primary;
      for (const s of this.channels.querySelectorAll('select')) {
        const playing = a.playing.get(s.dataset.channel!);
        if (playing) s.value = playing;
      }
      this.scrub.max = String(Math.max(0, (row?.times.length ?? 1) - 1));
      this.scrub.disabled = !row;
      this.loop.checked = a.loop;
      this.shownKey = -1;
    }
    this.interpolate.checked = a.interpolate;
    this.spin.textContent = a.spin ? `spins ${a.spin}°/s, as its engine turns it` : '';
    document.body.dataset.playing = [...new Set(a.playing.values())].join(',');
    document.body.dataset.paused = String(a.paused);
    if (!row && all) {
      this.frameText.value = '';
      this.scrub.removeAttribute('aria-valuetext');
    }
    const k = a.key();
    if (k === this.shownKey || !row) return;
    this.shownKey = k;
    const frame = row.frames[k] ?? k;
    const name = row.frameName(frame);
    const text = `frame ${frame}${name ? ` ${name}` : ''}, key ${k + 1} of ${row.times.length}`;
    this.scrub.value = String(k);
    this.scrub.setAttribute('aria-valuetext', text);
    this.frameText.value = text;
    document.body.dataset.frame = String(frame);
    document.body.dataset.key = String(k);
  }
}
