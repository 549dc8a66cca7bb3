#!/usr/bin/env node
// The CLI lives in the bundle (dist/cli.js, built by `npm run build`).
import '../dist/cli.js';
