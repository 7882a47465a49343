import Glibc

/// A transform split into translation, scale, skew, rotation (unit quaternion)
/// and perspective, as in the unmatrix algorithm of Graphics Gems II (also
/// CSS Transforms 2), in Core Animation's row-vector layout:
/// M = Scale * Skew * Rotation * Translation * Perspective.
/// The virtual key paths (`transform.rotation.z`, ...) read and write these
/// parts; interpolating them animates a 180° turn through 90° (S4.9).
public struct DecomposedTransform: Equatable, Sendable {
    public var translation: (x: Double, y: Double, z: Double) = (0, 0, 0)
    public var scale: (x: Double, y: Double, z: Double) = (1, 1, 1)
    /// xy, xz, yz shear factors.
    public var skew: (xy: Double, xz: Double, yz: Double) = (0, 0, 0)
    public var quaternion: (x: Double, y: Double, z: Double, w: Double) = (0, 0, 0, 1)
    public var perspective: (x: Double, y: Double, z: Double, w: Double) = (0, 0, 0, 1)

    public init() {}

    public static func == (a: Self, b: Self) -> Bool {
        a.translation == b.translation && a.scale == b.scale && a.skew == b.skew &&
            a.quaternion == b.quaternion && a.perspective == b.perspective
    }

    /// Decomposes m, or returns nil when its 3x3 part is singular.
    public init?(_ input: Transform3D) {
        var m = input
        guard m.m44 != 0, m.isFinite else { return nil }
        let norm = m.m44
        for i in 0..<4 { for j in 0..<4 { m[i, j] /= norm } }

        var pm = m
        pm.m14 = 0; pm.m24 = 0; pm.m34 = 0; pm.m44 = 1
        guard abs(pm.determinant) > 1e-12, let inverse = pm.inverted else { return nil }

        if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 {
            // M = A * P with P's last column p: p = A^-1 * column 3 of M.
            let rhs = [m.m14, m.m24, m.m34, m.m44]
            var p = [0.0, 0, 0, 0]
            for i in 0..<4 { for k in 0..<4 { p[i] += inverse[i, k] * rhs[k] } }
            perspective = (p[0], p[1], p[2], p[3])
        }
        translation = (m.m41, m.m42, m.m43)

        var row = [[m.m11, m.m12, m.m13], [m.m21, m.m22, m.m23], [m.m31, m.m32, m.m33]]
        var sx = length(row[0]); row[0] = normalized(row[0])
        var sxy = dot(row[0], row[1]); row[1] = combine(row[1], row[0], 1, -sxy)
        var sy = length(row[1]); row[1] = normalized(row[1]); sxy /= sy
        var sxz = dot(row[0], row[2]); row[2] = combine(row[2], row[0], 1, -sxz)
        var syz = dot(row[1], row[2]); row[2] = combine(row[2], row[1], 1, -syz)
        var sz = length(row[2]); row[2] = normalized(row[2]); sxz /= sz; syz /= sz
        if dot(row[0], cross(row[1], row[2])) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            for i in 0..<3 { row[i] = row[i].map { -$0 } }
        }
        scale = (sx, sy, sz)
        // Skew terms were measured on unit rows; express them for the matrix
        // Skew * Rotation whose rows are R1 + k * R0, and so on.
        skew = (sxy, sxz, syz)
        quaternion = DecomposedTransform.quaternion(rows: row)
    }

    /// The quaternion of a row-vector rotation matrix R (= C^T of the usual
    /// column-vector matrix C).
    static func quaternion(rows r: [[Double]]) -> (x: Double, y: Double, z: Double, w: Double) {
        var x = 0.5 * max(1 + r[0][0] - r[1][1] - r[2][2], 0).squareRoot()
        var y = 0.5 * max(1 - r[0][0] + r[1][1] - r[2][2], 0).squareRoot()
        var z = 0.5 * max(1 - r[0][0] - r[1][1] + r[2][2], 0).squareRoot()
        let w = 0.5 * max(1 + r[0][0] + r[1][1] + r[2][2], 0).squareRoot()
        if r[1][2] < r[2][1] { x = -x }
        if r[2][0] < r[0][2] { y = -y }
        if r[0][1] < r[1][0] { z = -z }
        return (x, y, z, w)
    }

    static func rotationMatrix(_ q: (x: Double, y: Double, z: Double, w: Double)) -> Transform3D {
        let (x, y, z, w) = q
        // Column-vector C, stored transposed for the row-vector layout.
        var r = Transform3D()
        r.m11 = 1 - 2 * (y * y + z * z); r.m21 = 2 * (x * y - z * w); r.m31 = 2 * (x * z + y * w)
        r.m12 = 2 * (x * y + z * w); r.m22 = 1 - 2 * (x * x + z * z); r.m32 = 2 * (y * z - x * w)
        r.m13 = 2 * (x * z - y * w); r.m23 = 2 * (y * z + x * w); r.m33 = 1 - 2 * (x * x + y * y)
        return r
    }

    /// Rebuilds the transform.
    public var transform: Transform3D {
        var m: Transform3D
        if skew == (0, 0, 0) {
            // scale × identity × rotation, without the two matrix products:
            // each row of the rotation times its scale (the same values).
            m = DecomposedTransform.rotationMatrix(quaternion)
            m.m11 *= scale.x; m.m12 *= scale.x; m.m13 *= scale.x
            m.m21 *= scale.y; m.m22 *= scale.y; m.m23 *= scale.y
            m.m31 *= scale.z; m.m32 *= scale.z; m.m33 *= scale.z
        } else {
            var k = Transform3D()
            k.m21 = skew.xy; k.m31 = skew.xz; k.m32 = skew.yz
            m = Transform3D.scale(scale.x, scale.y, scale.z)
                .concatenating(k)
                .concatenating(DecomposedTransform.rotationMatrix(quaternion))
        }
        m.m41 = translation.x; m.m42 = translation.y; m.m43 = translation.z
        if perspective != (0, 0, 0, 1) {
            var p = Transform3D()
            p.m14 = perspective.x; p.m24 = perspective.y; p.m34 = perspective.z; p.m44 = perspective.w
            m = m.concatenating(p)
        }
        return m
    }

    /// Euler angles (radians) such that Rotation = Rx(x) * Ry(y) * Rz(z) in the
    /// row-vector layout: rotation about x first, then y, then z.
    public var eulerAngles: (x: Double, y: Double, z: Double) {
        get {
            let r = DecomposedTransform.rotationMatrix(quaternion)
            let y = asin(max(-1, min(1, -r.m13)))
            if abs(r.m13) < 1 - 1e-12 {
                return (atan2(r.m23, r.m33), y, atan2(r.m12, r.m11))
            }
            // Gimbal lock: x and z turn about the same axis; put it all in z.
            return (0, y, atan2(-r.m21, r.m22))
        }
        set {
            let r = Transform3D.rotation(newValue.x, 1, 0, 0)
                .concatenating(.rotation(newValue.y, 0, 1, 0))
                .concatenating(.rotation(newValue.z, 0, 0, 1))
            quaternion = DecomposedTransform.quaternion(rows: [
                [r.m11, r.m12, r.m13], [r.m21, r.m22, r.m23], [r.m31, r.m32, r.m33],
            ])
        }
    }
}

private func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
private func normalized(_ v: [Double]) -> [Double] {
    let l = length(v)
    return l == 0 ? v : v.map { $0 / l }
}
private func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
private func cross(_ a: [Double], _ b: [Double]) -> [Double] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
private func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
    [sa * a[0] + sb * b[0], sa * a[1] + sb * b[1], sa * a[2] + sb * b[2]]
}
