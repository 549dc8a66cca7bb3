#!/usr/bin/env bash
# Installs whatever is needed and missing; idempotent (a second run does nothing slow).
#   scripts/setup.sh --for demo    what the build and `npm run demo` / `npm run demo:web` need: 1-4 below
#   scripts/setup.sh --for test    that, and the programs the tests drive: 5-6 below (the default)
#   scripts/setup.sh --for bench   that, and the programs the bench measures against: 5-6 below
#
# What it settles (docs/toolchain.md explains why):
#   1. npm dev dependencies (npm install from package-lock.json, only when it changed).
#   2. A Rust toolchain that has the wasm32-unknown-unknown target. Debian's, where installed, wins (see below);
#      else one that already has it (a user's rustup); otherwise Debian's rustc + libstd-rust-dev-wasm32 + lld, installed with apt
#      when we are root. The choice is written to target/toolchain.env for scripts/build.sh.
#   3. When that toolchain's cargo predates sparse registries (Debian's 1.65), the locked dependencies are
#      vendored once with the newer host cargo and the wasm build runs offline against them.
#   4. wasm-bindgen-cli pinned to the exact wasm-bindgen in Cargo.lock, and wasm-pack, built from crates.io
#      with the host cargo into $IDTECH_TOOLS_DIR (default ~/.cache/idtech-models/tools); wasm-opt from
#      Debian's binaryen when apt is available (optional: the build works without it).
#   5. Tests and bench: Debian's chromium (the browser tests and the archive bench drive it through playwright-core;
#      never `playwright install`), assimp-utils (the `assimp` CLI: the write tests read our files with it, the bench
#      times it) and zip/unzip (archive tests, bench).
#   6. Tests and bench: Python 3 with Pillow, the independent image decoder the image tests and the bench compare
#      against (pip when the python3 on PATH allows it, else Debian's python3-pil).
# Programs of 5 already on the machine are recorded in target/toolchain.env whatever --for says.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS_DIR=${IDTECH_TOOLS_DIR:-$HOME/.cache/idtech-models/tools}
WASM_PACK_VERSION=0.13.1
mkdir -p target "$TOOLS_DIR"
log() { printf '[setup] %s\n' "$*" >&2; }

FOR=test
while [ $# -gt 0 ]; do
  case "$1" in
    --for) FOR=${2:-}; shift 2 || shift ;;
    --for=*) FOR=${1#--for=}; shift ;;
    *) FOR="?$1"; break ;;
  esac
done
case "$FOR" in
  demo | test | bench) ;;
  *) echo "usage: scripts/setup.sh [--for demo|test|bench]   (default: test)" >&2; exit 2 ;;
esac
log "setting up for $FOR"

APT_UPDATED=0
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "need Debian packages: $* — install them (apt-get install $*) and run again"; return 1
  fi
  if [ $APT_UPDATED = 0 ]; then log "apt-get update"; apt-get update -qq >&2; APT_UPDATED=1; fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# --- 1. npm -------------------------------------------------------------------------------------------
lock_sum=$(sha1sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.idtech-lock ] || [ "$(cat node_modules/.idtech-lock)" != "$lock_sum" ]; then
  log "npm install (from package-lock.json)"
  npm install --no-audit --no-fund --loglevel=error >&2
  echo "$lock_sum" > node_modules/.idtech-lock
fi

# --- 2. Rust: a host cargo (native tests, cargo install) and a wasm32-capable toolchain ---------------------
has_wasm32() { # $1 = rustc
  local sysroot
  sysroot=$("$1" --print sysroot 2>/dev/null) || return 1
  compgen -G "$sysroot/lib/rustlib/wasm32-unknown-unknown/lib/libcore-*.rlib" >/dev/null
}
cargo_minor() { "$1" --version 2>/dev/null | sed -E 's/^cargo 1\.([0-9]+).*/\1/'; }

HOST_CARGO=$(command -v cargo || true)
if [ -z "$HOST_CARGO" ]; then apt_install cargo rustc; HOST_CARGO=/usr/bin/cargo; fi

# Debian's pair first where it is installed: a rustc from 1.82 (a rustup with the wasm32 target added) turns on
# reference types, wasm-bindgen then keeps an externref table, and after wasm-opt the module fails at start in V8
# (`Table.grow(): failed to grow table by 4`) — the build this project checks is Debian's (docs/toolchain.md).
WASM_RUSTC=""; WASM_CARGO=""
if [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && has_wasm32 /usr/bin/rustc && { [ -x /usr/bin/rust-lld ] || [ -x /usr/bin/lld ]; }; then
  WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo
elif command -v rustc >/dev/null && has_wasm32 "$(command -v rustc)"; then
  WASM_RUSTC=$(command -v rustc); WASM_CARGO=$HOST_CARGO
fi
if [ -z "$WASM_RUSTC" ] || [ ! -x "$WASM_CARGO" ]; then
  log "no Rust toolchain with the wasm32-unknown-unknown target: installing Debian's"
  apt_install rustc cargo libstd-rust-dev-wasm32 lld
  WASM_RUSTC=/usr/bin/rustc; WASM_CARGO=/usr/bin/cargo
  has_wasm32 "$WASM_RUSTC" || { log "Debian rustc still has no wasm32 target"; exit 1; }
fi
# wasm-pack finds cargo and rustc on PATH: give it a directory holding exactly the chosen pair.
mkdir -p target/toolchain/bin
ln -sf "$WASM_CARGO" target/toolchain/bin/cargo
ln -sf "$WASM_RUSTC" target/toolchain/bin/rustc

# --- 3. Vendored sources for an old wasm cargo ----------------------------------------------------------
WASM_CARGO_HOME=""
if [ "$(cargo_minor "$WASM_CARGO")" -lt 68 ]; then
  WASM_CARGO_HOME=$ROOT/target/wasm-cargo-home
  cargo_sum=$(cat Cargo.lock crates/*/Cargo.toml | sha1sum | cut -d' ' -f1)
  if [ ! -f "$WASM_CARGO_HOME/.stamp" ] || [ "$(cat "$WASM_CARGO_HOME/.stamp")" != "$cargo_sum" ]; then
    log "vendoring locked crates for $("$WASM_CARGO" --version) (no sparse registry support)"
    rm -rf target/vendor "$WASM_CARGO_HOME"; mkdir -p "$WASM_CARGO_HOME"
    "$HOST_CARGO" vendor --quiet --locked --versioned-dirs target/vendor >/dev/null
    cat > "$WASM_CARGO_HOME/config.toml" <<TOML
[source.crates-io]
replace-with = "vendored-sources"
[source.vendored-sources]
directory = "$ROOT/target/vendor"
[net]
offline = true
TOML
    echo "$cargo_sum" > "$WASM_CARGO_HOME/.stamp"
  fi
fi

# --- 4. wasm-bindgen-cli (pinned to Cargo.lock) and wasm-pack -------------------------------------------
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$WB_VERSION" ] || { log "wasm-bindgen not found in Cargo.lock"; exit 1; }
if [ "$("$TOOLS_DIR/bin/wasm-bindgen" --version 2>/dev/null | cut -d' ' -f2)" != "$WB_VERSION" ]; then
  log "cargo install wasm-bindgen-cli $WB_VERSION (a few minutes, once)"
  "$HOST_CARGO" install wasm-bindgen-cli --version "=$WB_VERSION" --locked --root "$TOOLS_DIR" --quiet >&2
fi
if [ "$("$TOOLS_DIR/bin/wasm-pack" --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_PACK_VERSION" ]; then
  log "cargo install wasm-pack $WASM_PACK_VERSION (a few minutes, once)"
  "$HOST_CARGO" install wasm-pack --version "=$WASM_PACK_VERSION" --locked --root "$TOOLS_DIR" --quiet >&2
fi
WASM_OPT=$(command -v wasm-opt || true)
if [ -z "$WASM_OPT" ]; then
  apt_install binaryen || true
  WASM_OPT=$(command -v wasm-opt || true)
fi

# --- 5. System programs the tests and benches drive (found either way; installed only for them) -------------
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
ASSIMP=$(command -v assimp || true)
if [ "$FOR" != demo ]; then
  if [ -z "$CHROMIUM" ]; then
    apt_install chromium
    CHROMIUM=$(command -v chromium || true)
  fi
  if [ -z "$ASSIMP" ]; then
    apt_install assimp-utils || log "assimp-utils unavailable: the bench will skip the native assimp column"
    ASSIMP=$(command -v assimp || true)
  fi
  # Info-ZIP zip and unzip: the archive tests cross-check our reader on archives made by another writer (zip, with
  # -fz for zip64), and the archive bench times listing against `unzip -l`.
  if ! command -v zip >/dev/null || ! command -v unzip >/dev/null; then
    apt_install zip unzip || log "zip/unzip unavailable: the archive tests that need them will fail"
  fi

  # --- 6. Pillow (the reference decoder of the image tests and the image bench) --------------------------------
  if ! command -v python3 >/dev/null; then apt_install python3 python3-pil; fi
  if ! python3 -c 'import PIL' 2>/dev/null; then
    log "Pillow for python3"
    python3 -m pip install --quiet --disable-pip-version-check pillow >&2 2>/dev/null || apt_install python3-pil
    python3 -c 'import PIL' || { log "python3 cannot import PIL (Pillow)"; exit 1; }
  fi
fi

cat > target/toolchain.env <<ENV
# Written by scripts/setup.sh; read by scripts/build.sh and scripts/test.sh.
HOST_CARGO='$HOST_CARGO'
WASM_CARGO='$WASM_CARGO'
WASM_RUSTC='$WASM_RUSTC'
WASM_CARGO_HOME='$WASM_CARGO_HOME'
TOOLS_DIR='$TOOLS_DIR'
WASM_OPT='$WASM_OPT'
CHROMIUM='$CHROMIUM'
ASSIMP='$ASSIMP'
ENV
log "toolchain: wasm32 via $("$WASM_RUSTC" --version), wasm-bindgen $WB_VERSION, wasm-pack $WASM_PACK_VERSION${WASM_OPT:+, wasm-opt}"
