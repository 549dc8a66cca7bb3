/**
 * The status line: what the page is doing, with a progress bar for anything that takes longer than 100 ms (shorter
 * work shows nothing, so quick opens do not flicker). Several tasks may run (an archive mounting while a model
 * opens): the newest shows.
 */
const SHOW_AFTER_MS = 100;

export interface Task {
  update(done: number, total: number | null, what: string): void;
  end(message?: string): void;
}

export class StatusLine {
  private readonly tasks: { what: string; done: number; total: number | null; shown: boolean }[] = [];

  constructor(
    private readonly bar: HTMLProgressElement,
    private readonly text: HTMLElement,
  ) {}

  start(what: string): Task {
    const t = { what, done: 0, total: null as number | null, shown: false };
    this.tasks.push(t);
    const timer = setTimeout(() => {
      t.shown = true;
      this.draw();
    }, SHOW_AFTER_MS);
    return {
      update: (done, total, w) => {
        Object.assign(t, { done, total, what: w });
        if (t.shown) this.draw();
      },
      end: (message) => {
        clearTimeout(timer);
        this.tasks.splice(this.tasks.indexOf(t), 1);
        this.draw(message);
      },
    };
  }

  private draw(message?: string): void {
    const t = [...this.tasks].reverse().find((x) => x.shown);
    this.bar.hidden = !t;
    if (t) {
      if (t.total) this.bar.value = Math.min(1, t.done / t.total);
      else this.bar.removeAttribute('value');
      this.text.textContent = t.what;
    } else if (message !== undefined || this.tasks.length === 0) this.text.textContent = message ?? this.text.textContent;
  }
}
