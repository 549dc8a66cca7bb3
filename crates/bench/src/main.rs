//! `idtech-bench-native MODEL.bin`: times the same `idtech-core` kernels the wasm builds run, compiled for
//! the host, on a model dumped by `bench/run.mjs` (little-endian):
//!   u32 joints, frames, components, groups, weight_total, vertices
//!   i32 parents[joints]; u32 flags[joints]; u32 start[joints]; f32 baseframe[joints·6];
//!   f32 frames[frames·components]; u32 group_sizes[groups]; u32 joints[weight_total];
//!   f32 weights[weight_total·4]; u32 dest[vertices]; f32 normal_weights[weight_total·4];
//!   f32 tangent_weights[weight_total·4]
//! Prints one JSON object: compose ns per joint; skin Mvert/s (positions, file order), grouped order, and
//! positions + normals + tangents; a whole frame in µs (best of 7 rounds).

use idtech_core::{pose, skin, MATRIX_STRIDE, POSE_STRIDE};
use std::time::Instant;

struct Reader {
    bytes: Vec<u8>,
    at: usize,
}

impl Reader {
    fn u32s(&mut self, n: usize) -> Vec<u32> {
        let out = self.bytes[self.at..self.at + 4 * n].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        self.at += 4 * n;
        out
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        self.u32s(n).into_iter().map(f32::from_bits).collect()
    }
}

/// Best (smallest) mean seconds per call over 7 rounds of ~40 ms each.
fn time<F: FnMut()>(mut f: F) -> f64 {
    f();
    let mut reps = 1u32;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        if t.elapsed().as_secs_f64() > 0.04 {
            break;
        }
        reps *= 2;
    }
    (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--lbs") {
        return lbs_main(&std::env::args().nth(2).expect("usage: idtech-bench-native --lbs DUMP.bin"));
    }
    let path = std::env::args().nth(1).expect("usage: idtech-bench-native MODEL.bin");
    let mut r = Reader { bytes: std::fs::read(&path).expect("read model dump"), at: 0 };
    let h = r.u32s(6);
    let (nj, nf, nc, ng, nw, nv) = (h[0] as usize, h[1] as usize, h[2] as usize, h[3] as usize, h[4] as usize, h[5] as usize);
    let parents: Vec<i32> = r.u32s(nj).into_iter().map(|x| x as i32).collect();
    let flags: Vec<u8> = r.u32s(nj).into_iter().map(|x| x as u8).collect();
    let start = r.u32s(nj);
    let baseframe = r.f32s(nj * 6);
    let frames = r.f32s(nf * nc);
    let groups = r.u32s(ng);
    let joints = r.u32s(nw);
    let weights = r.f32s(nw * 4);
    let dest = r.u32s(nv);
    let normal_weights = r.f32s(nw * 4);
    let tangent_weights = r.f32s(nw * 4);
    assert!(idtech_core::validate::parents(&parents).is_ok() && idtech_core::validate::anim(&flags, &start, baseframe.len(), nc).is_ok());
    assert!(idtech_core::validate::skin(nj, &groups, &joints, weights.len(), &dest, nv * 3).is_ok());

    let mut local = vec![0.0f32; nj * POSE_STRIDE];
    let mut object = vec![0.0f32; nj * POSE_STRIDE];
    let mut matrices = vec![0.0f32; nj * MATRIX_STRIDE];
    let mut out = vec![0.0f32; nv * 3];
    let mut out_normals = vec![0.0f32; nv * 3];
    let mut out_tangents = vec![0.0f32; nv * 3];
    let mut f = 0usize;
    let mut compose = |local: &mut [f32], object: &mut [f32], matrices: &mut [f32]| {
        pose::compose_frame(&flags, &start, &baseframe, &frames[f * nc..f * nc + nc], local);
        pose::local_to_object(&parents, local, object);
        pose::pose_matrices(object, matrices);
        f = (f + 1) % nf.max(1);
    };
    let compose_s = time(|| compose(&mut local, &mut object, &mut matrices));
    let skin_s = time(|| {
        skin::skin_positions(&matrices, &groups, &joints, &weights, &dest, &mut out);
    });
    let grouped_s = time(|| {
        skin::skin_positions(&matrices, &groups, &joints, &weights, &[], &mut out);
    });
    let pnt_s = time(|| {
        skin::skin_positions(&matrices, &groups, &joints, &weights, &dest, &mut out);
        skin::skin_normals(&matrices, &groups, &joints, &normal_weights, &dest, &mut out_normals);
        skin::skin_normals(&matrices, &groups, &joints, &tangent_weights, &dest, &mut out_tangents);
    });
    let frame_s = time(|| {
        compose(&mut local, &mut object, &mut matrices);
        skin::skin_positions(&matrices, &groups, &joints, &weights, &dest, &mut out);
    });
    let checksum: f64 = out.iter().map(|&x| x as f64).sum();
    println!(
        "{{\"compose_ns_per_joint\": {:.3}, \"skin_mverts_per_s\": {:.3}, \"skin_grouped_mverts_per_s\": {:.3}, \"skin_pnt_mverts_per_s\": {:.3}, \"frame_us\": {:.3}, \"checksum\": {}}}",
        compose_s * 1e9 / nj as f64,
        nv as f64 / skin_s / 1e6,
        nv as f64 / grouped_s / 1e6,
        nv as f64 / pnt_s / 1e6,
        frame_s * 1e6,
        checksum
    );
}

/// `idtech-bench-native --lbs FILE`: the linear-blend-skinning kernel (`idtech_core::lbs`, SSE2 on x86-64) on a dump
/// written by bench/iqm.mjs (little-endian): u32 vertices, joints, byte_weights (1: u8 weights, 0: f32);
/// f32 matrices[joints·16]; f32 positions[v·3]; f32 normals[v·3]; f32 tangents[v·4]; u8 indices[v·4];
/// then u8 weights[v·4] or f32 weights[v·4]. Prints positions-only and positions + normals + tangents Mvert/s.
pub fn lbs_main(path: &str) {
    use idtech_core::lbs::{lbs_skin, LbsInput, LbsOutput};
    let mut r = Reader { bytes: std::fs::read(path).expect("read lbs dump"), at: 0 };
    let h = r.u32s(3);
    let (nv, nj, byte_weights) = (h[0] as usize, h[1] as usize, h[2] == 1);
    let matrices = r.f32s(nj * 16);
    let positions = r.f32s(nv * 3);
    let normals = r.f32s(nv * 3);
    let tangents = r.f32s(nv * 4);
    let indices = r.bytes[r.at..r.at + nv * 4].to_vec();
    r.at += nv * 4;
    let (wu8, wf32) = if byte_weights { (r.bytes[r.at..r.at + nv * 4].to_vec(), Vec::new()) } else { (Vec::new(), r.f32s(nv * 4)) };
    assert!(idtech_core::validate::lbs(nj, &indices, &wu8, &wf32).is_ok());
    let (mut op, mut on, mut ot) = (vec![0.0f32; nv * 3], vec![0.0f32; nv * 3], vec![0.0f32; nv * 4]);
    let p_only = LbsInput { matrices: &matrices, positions: &positions, normals: &[], tangents: &[], indices: &indices, weights_u8: &wu8, weights_f32: &wf32 };
    let pnt = LbsInput { normals: &normals, tangents: &tangents, ..p_only };
    let p_s = time(|| {
        assert!(lbs_skin(&p_only, &mut LbsOutput { positions: &mut op, normals: &mut [], tangents: &mut [] }));
    });
    let pnt_s = time(|| {
        assert!(lbs_skin(&pnt, &mut LbsOutput { positions: &mut op, normals: &mut on, tangents: &mut ot }));
    });
    let checksum: f64 = op.iter().map(|&x| x as f64).sum();
    println!("{{\"lbs_mverts_per_s\": {:.3}, \"lbs_pnt_mverts_per_s\": {:.3}, \"checksum\": {}}}", nv as f64 / p_s / 1e6, nv as f64 / pnt_s / 1e6, checksum);
}
