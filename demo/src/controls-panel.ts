/**
 * What a model's engine sets besides clip and frame, where its view offers it (`extras.controls`: a Half-Life
 * model's bone controllers — degrees or units within their range, a looping one over its 360° —, its blending
 * bytes, the submodel of each body part): a slider each, with its value. A change asks for the model again with
 * every value (`onChange`): the worker bakes them into its clips and geometry, as the engine's StudioCalcBoneAdj,
 * StudioSlerpBones and StudioSetupModel apply them. No format is named here; a model whose view offers nothing shows
 * nothing.
 */
import type { ViewControl } from 'idtech-models/three';
import type { ViewControls } from './protocol.js';
import { el } from './text.js';

const unitText = (c: ViewControl, v: number) => (c.unit === 'degrees' ? `${v}°` : c.unit === 'units' ? `${v} units` : c.unit === 'submodel' ? `submodel ${v}` : String(v));

export class ControlsPanel {
  constructor(
    private readonly root: HTMLElement,
    private readonly onChange: (values: ViewControls) => void,
  ) {}

  /** The sliders of `controls`, set to `values` (a control not in them at its rest). */
  show(controls: readonly ViewControl[] | undefined, values: ViewControls): void {
    const current: ViewControls = { controllers: { ...values.controllers }, blend: [...(values.blend ?? [])], submodels: { ...values.submodels } };
    const all = controls ?? [];
    const sliders = all.map((c) => {
      const value = (c.kind === 'controller' ? current.controllers![c.index] : c.kind === 'submodel' ? current.submodels![c.index] : current.blend![c.index]) ?? c.rest;
      // a byte or a submodel steps by 1; degrees and units take any value (a fixed step would move the rest value off its grid)
      const step = c.unit === 'byte' || c.unit === 'submodel' ? '1' : 'any';
      const input = el('input', '', { type: 'range', min: String(c.min), max: String(c.max), step, value: String(value), 'aria-label': c.label, 'data-control': `${c.kind}:${c.index}` });
      const shown = el('output', unitText(c, value));
      input.addEventListener('input', () => (shown.value = unitText(c, Number(input.value))));
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (c.kind === 'controller') current.controllers![c.index] = v;
        else if (c.kind === 'submodel') current.submodels![c.index] = v;
        else {
          const blend = current.blend!;
          while (blend.length <= c.index) blend.push(0);
          blend[c.index] = v;
        }
        // the body value the submodels make (StudioSetupModel reads each part's as (body / base) % count)
        const body = all.reduce((b, x) => b + (x.kind === 'submodel' ? (current.submodels![x.index] ?? 0) * (x.weight ?? 1) : 0), 0);
        this.onChange({ controllers: { ...current.controllers }, blend: [...current.blend!], submodels: { ...current.submodels }, body });
      });
      const label = el('label', `${c.label} `, { title: `${c.min} to ${c.max} ${c.unit}` });
      label.append(input, shown);
      return label;
    });
    this.root.replaceChildren(...sliders);
    this.root.hidden = sliders.length === 0;
    document.body.dataset.controls = String(sliders.length);
  }
}
