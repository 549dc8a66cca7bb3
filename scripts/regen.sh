#!/usr/bin/env bash
# Every generated file a change can make stale, in the order they depend on each other: the bundles, the declaration
# files, the CLI's help block in the README, the house picture, then the size figures in docs/ — last, because the
# package ships docs/ and the tarball's figures count them. Run it before committing a change to ts/src or docs/.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/bundle.mjs
npx tsc -p tsconfig.json
node scripts/types.mjs
npx tsc -p demo
node scripts/cli-help.mjs --write
node scripts/house.mjs
node bench/bundle-size.mjs --docs > /dev/null
node scripts/install-size.mjs --write > /dev/null
echo "regenerated: dist/, dist/types, README's CLI block, docs/architecture.svg, docs/package.md and docs/benchmarks.md figures"
