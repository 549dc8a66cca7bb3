/** MD3 → glTF: on the export floor (export/gltf-md3.ts), shared with MDC; re-exported for this room's own exporters. */
export * from '../../export/gltf-md3.js';
