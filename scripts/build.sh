#!/usr/bin/env bash
# Builds the two wasm modules (SIMD128 and scalar) from crates/, embeds them for TS, bundles dist/.
# Needs scripts/setup.sh to have run (it writes target/toolchain.env). Skips the wasm build when
# nothing under crates/ changed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck disable=SC1091
source target/toolchain.env
log() { printf '[build] %s\n' "$*" >&2; }

wasm_sum=$( (cat Cargo.lock Cargo.toml target/toolchain.env scripts/build.sh; find crates -type f \( -name '*.rs' -o -name Cargo.toml \) | sort | xargs cat) | sha1sum | cut -d' ' -f1)
if [ ! -f ts/wasm/.stamp ] || [ "$(cat ts/wasm/.stamp)" != "$wasm_sum" ]; then
  for variant in simd scalar; do
    flags=""
    opt_features="--enable-sign-ext --enable-mutable-globals"
    if [ $variant = simd ]; then flags="-C target-feature=+simd128"; opt_features="$opt_features --enable-simd"; fi
    log "wasm-pack build ($variant) with $("$WASM_RUSTC" --version)"
    (
      export PATH="$ROOT/target/toolchain/bin:$TOOLS_DIR/bin:$PATH"
      export CARGO_TARGET_DIR="$ROOT/target/wasm-$variant" RUSTFLAGS="$flags"
      if [ -n "$WASM_CARGO_HOME" ]; then export CARGO_HOME="$WASM_CARGO_HOME"; fi
      wasm-pack --quiet build crates/wasm --release --target web --mode no-install --no-pack \
        --out-dir "$ROOT/ts/wasm/$variant" --out-name idtech_wasm >&2
    )
    wasm="ts/wasm/$variant/idtech_wasm_bg.wasm"
    if [ -n "$WASM_OPT" ]; then
      # shellcheck disable=SC2086
      "$WASM_OPT" -O3 $opt_features "$wasm" -o "$wasm.opt" && mv "$wasm.opt" "$wasm" || log "wasm-opt failed; keeping the unoptimised module"
    fi
    node scripts/embed-wasm.mjs "$wasm" "ts/wasm/$variant/binary.js"
  done
  # The bake kernel for workers sharing one memory (crates/threads): SIMD128 plus the atomics and bulk-memory features
  # a shared memory needs; it imports its memory (shared, up to 4 GiB) and exports its stack pointer, which the pool
  # sets per worker. Plain cargo: no wasm-bindgen glue (see crates/threads/src/lib.rs).
  log "cargo build (threads) with $("$WASM_RUSTC" --version)"
  (
    export PATH="$ROOT/target/toolchain/bin:$TOOLS_DIR/bin:$PATH"
    # Fat LTO compiles the standard library's code with these features too (the linker refuses a shared memory with objects
    # built without them).
    export CARGO_TARGET_DIR="$ROOT/target/wasm-threads" CARGO_PROFILE_RELEASE_LTO=fat
    export RUSTFLAGS="-C target-feature=+simd128,+atomics,+bulk-memory,+mutable-globals -C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=4294967296 -C link-arg=--export=__stack_pointer"
    if [ -n "$WASM_CARGO_HOME" ]; then export CARGO_HOME="$WASM_CARGO_HOME"; fi
    cargo build --quiet --release --target wasm32-unknown-unknown -p idtech-threads >&2
  )
  mkdir -p ts/wasm/threads
  wasm="ts/wasm/threads/idtech_threads.wasm"
  cp target/wasm-threads/wasm32-unknown-unknown/release/idtech_threads.wasm "$wasm"
  if [ -n "$WASM_OPT" ]; then
    "$WASM_OPT" -O3 --strip-debug --strip-producers --enable-sign-ext --enable-mutable-globals --enable-simd --enable-threads --enable-bulk-memory "$wasm" -o "$wasm.opt" && mv "$wasm.opt" "$wasm" || log "wasm-opt failed; keeping the unoptimised module"
  fi
  node scripts/embed-wasm.mjs "$wasm" "ts/wasm/threads/binary.js"
  echo "$wasm_sum" > ts/wasm/.stamp
fi

# The TS layout constants and job offsets, and the WASM backend's job writers, are generated from the Rust sources
# (one source of truth); the house picture from ts/src's imports (docs/architecture.svg: the architecture test holds it).
node scripts/gen-layout.mjs
node scripts/gen-jobs.mjs
node scripts/house.mjs 2>/dev/null

log "esbuild → dist/"
node scripts/bundle.mjs
# tsc checks all of ts/src and emits its declarations into target/types; the public ones go to dist/types.
rm -rf target/types
npx tsc -p tsconfig.json
node scripts/types.mjs
