//! Quaternions, one convention for the whole project:
//! stored `(x, y, z, w)`, Hamilton product, a vector is rotated as `q·v·q*`.
//! MD5 files store x, y, z only; `recover_w` returns **w = −sqrt(max(0, 1 − x² − y² − z²))** (the MD5 format
//! document's and assimp's sign). Doom 3 stores +sqrt with transposed matrices: the same rotation.

pub type Quat = [f32; 4];

#[inline]
pub fn recover_w(x: f32, y: f32, z: f32) -> f32 {
    let t = 1.0 - x * x - y * y - z * z;
    if t > 0.0 {
        -t.sqrt()
    } else {
        0.0
    }
}

/// Hamilton product `a·b` (apply b, then a).
#[inline]
pub fn mul(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

#[inline]
pub fn normalize(q: Quat) -> Quat {
    let len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if len2 > 0.0 {
        let inv = 1.0 / len2.sqrt();
        [q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Rotate v by unit q: v + 2w(u×v) + 2u×(u×v), u = q.xyz.
#[inline]
pub fn rotate(q: Quat, v: [f32; 3]) -> [f32; 3] {
    let [x, y, z, w] = q;
    let tx = 2.0 * (y * v[2] - z * v[1]);
    let ty = 2.0 * (z * v[0] - x * v[2]);
    let tz = 2.0 * (x * v[1] - y * v[0]);
    [
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    ]
}

/// Shortest-path spherical interpolation as the Doom 3 engine does it: flip `b` when the dot product is
/// negative, fall back to a plain lerp when the angle is tiny; `t ≤ 0` gives `a`, `t ≥ 1` gives `b`.
#[inline]
pub fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    if t <= 0.0 {
        return a;
    }
    if t >= 1.0 {
        return b;
    }
    let mut cosom = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let mut to = b;
    if cosom < 0.0 {
        cosom = -cosom;
        to = [-b[0], -b[1], -b[2], -b[3]];
    }
    let (s0, s1) = if 1.0 - cosom > 1e-6 {
        let omega = cosom.min(1.0).acos();
        let inv_sin = 1.0 / omega.sin();
        (((1.0 - t) * omega).sin() * inv_sin, (t * omega).sin() * inv_sin)
    } else {
        (1.0 - t, t)
    };
    [
        s0 * a[0] + s1 * to[0],
        s0 * a[1] + s1 * to[1],
        s0 * a[2] + s1 * to[2],
        s0 * a[3] + s1 * to[3],
    ]
}

/// Column-major rotation matrix of unit q: returns columns (each x, y, z).
#[inline]
pub fn to_columns(q: Quat) -> [[f32; 3]; 3] {
    let [x, y, z, w] = q;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    [
        [1.0 - 2.0 * (yy + zz), 2.0 * (xy + wz), 2.0 * (xz - wy)],
        [2.0 * (xy - wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + wx)],
        [2.0 * (xz + wy), 2.0 * (yz - wx), 1.0 - 2.0 * (xx + yy)],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-5
    }

    #[test]
    fn recovered_w_is_negative_and_makes_a_unit_quaternion() {
        let w = recover_w(0.5, 0.5, 0.5);
        assert!(close(w, -0.5));
        assert_eq!(recover_w(1.0, 1.0, 0.0), 0.0);
    }

    #[test]
    fn rotate_matches_the_matrix_columns() {
        let q = normalize([0.3, -0.2, 0.5, -0.78]);
        let c = to_columns(q);
        let v = [0.7, -1.3, 2.1];
        let r = rotate(q, v);
        for i in 0..3 {
            let m = c[0][i] * v[0] + c[1][i] * v[1] + c[2][i] * v[2];
            assert!(close(r[i], m), "{} vs {}", r[i], m);
        }
    }

    #[test]
    fn ninety_degrees_about_z_turns_x_into_y() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let r = rotate([0.0, 0.0, h, h], [1.0, 0.0, 0.0]);
        assert!(close(r[0], 0.0) && close(r[1], 1.0) && close(r[2], 0.0));
    }

    #[test]
    fn mul_composes_rotations_right_to_left() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let z90 = [0.0, 0.0, h, h];
        let x90 = [h, 0.0, 0.0, h];
        let v = [0.0, 1.0, 0.0];
        let a = rotate(mul(z90, x90), v);
        let b = rotate(z90, rotate(x90, v));
        for i in 0..3 {
            assert!(close(a[i], b[i]));
        }
    }

    #[test]
    fn slerp_takes_the_short_way_and_hits_the_ends() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let b = [0.0, 0.0, -h, -h]; // +90° about z, written with a negative sign
        let m = slerp(a, b, 0.5);
        let r = rotate(m, [1.0, 0.0, 0.0]);
        let s = (std::f32::consts::PI / 4.0).sin();
        assert!(close(r[0], s) && close(r[1], s), "{:?}", r);
        assert_eq!(slerp(a, b, 0.0), a);
        assert_eq!(slerp(a, b, 1.0), b);
    }
}
