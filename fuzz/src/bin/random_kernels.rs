//! The libFuzzer target's checks on stable Rust, driven by a seeded xorshift: `random_kernels [INPUTS] [SEED]`.
//! Inputs are random byte strings of random length (the decoder biases them towards the edges); prints inputs/s.
//! A panic prints the failing input as hex, to replay with `cargo fuzz run validated_kernels FILE`.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let inputs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let mut state: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let started = Instant::now();
    let mut buf = Vec::with_capacity(8192);
    // How many inputs got past each validation into the kernels it guards.
    let mut reached = [0u64; 4];
    for i in 0..inputs {
        let len = match next() % 4 {
            0 => next() % 64,
            1 => next() % 512,
            _ => next() % 4096,
        } as usize;
        buf.clear();
        buf.extend((0..len).map(|_| next() as u8));
        let data = buf.clone();
        match std::panic::catch_unwind(|| idtech_core_fuzz::check(&data)) {
            Ok(r) => {
                for (k, hit) in [r.parents_ok, r.anim_ok, r.skin_ok, r.batch].into_iter().enumerate() {
                    reached[k] += u64::from(hit);
                }
            }
            Err(_) => {
                let hex: String = data.iter().map(|b| format!("{b:02x}")).collect();
                eprintln!("random_kernels: input {i} failed ({} bytes): {hex}", data.len());
                std::process::exit(1);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("random_kernels: {inputs} inputs, 0 failures, {secs:.1} s, {:.0} inputs/s", inputs as f64 / secs);
    println!(
        "random_kernels: validated and run: skeleton {}, anim {}, skin stream {}, batch {}",
        reached[0], reached[1], reached[2], reached[3]
    );
}
