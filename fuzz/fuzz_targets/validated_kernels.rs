//! libFuzzer entry: every input is decoded into kernel inputs and checked by `idtech_core_fuzz::check`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = idtech_core_fuzz::check(data);
});
