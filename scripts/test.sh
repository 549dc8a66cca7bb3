#!/usr/bin/env bash
# All tests: Rust (cargo test, native), the tests' type check (tsc -p tsconfig.test.json), then TS (vitest, against
# the WASM builds and the TS path).
# Ends with one line `N passed, N failed` and a non-zero exit status if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source target/toolchain.env
mkdir -p target

cargo_env=()
if [ "$(basename "$HOST_CARGO")" = cargo ] && [ "$("$HOST_CARGO" --version | sed -E 's/^cargo 1\.([0-9]+).*/\1/')" -lt 68 ] && [ -n "$WASM_CARGO_HOME" ]; then
  cargo_env=(env CARGO_HOME="$WASM_CARGO_HOME")
fi
echo "== cargo test (native)"
"${cargo_env[@]}" "$HOST_CARGO" test --workspace --locked 2>&1 | tee target/cargo-test.log
cargo_status=${PIPESTATUS[0]}
read -r rust_passed rust_failed < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p + 0, f + 0 }' target/cargo-test.log)
rust_passed=${rust_passed:-0}; rust_failed=${rust_failed:-0}
if [ "$cargo_status" != 0 ] && [ "$rust_failed" = 0 ]; then rust_failed=1; fi # did not compile

# Before vitest, which runs for minutes: a test importing what a module no longer exports fails here, by name. Each
# type error counts as one failure.
echo "== tsc -p tsconfig.test.json (the tests type-checked with the sources)"
npx tsc -p tsconfig.test.json 2>&1 | tee target/tsc-test.log
tsc_status=${PIPESTATUS[0]}
types_failed=$(grep -c 'error TS' target/tsc-test.log)
if [ "$tsc_status" != 0 ] && [ "$types_failed" = 0 ]; then types_failed=1; fi
if [ "$types_failed" = 0 ]; then types_passed=1; else types_passed=0; echo "== the tests do not type-check: $types_failed errors (above; target/tsc-test.log)"; fi

echo "== vitest"
rm -f target/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile.json=target/vitest.json
vitest_status=$?
read -r ts_passed ts_failed < <(node -e '
  try { const r = JSON.parse(require("fs").readFileSync("target/vitest.json", "utf8"));
        console.log(r.numPassedTests, r.numFailedTests + (r.numFailedTestSuites || 0)); }
  catch { console.log(0, 1); }')
if [ "$vitest_status" != 0 ] && [ "$ts_failed" = 0 ]; then ts_failed=1; fi

passed=$((rust_passed + types_passed + ts_passed)); failed=$((rust_failed + types_failed + ts_failed))
echo "rust: $rust_passed passed, $rust_failed failed; test types: $types_passed passed, $types_failed failed; ts: $ts_passed passed, $ts_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
