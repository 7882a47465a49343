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
    /// Rows are worked as three-double values (no arrays: re-triggering a
    /// transform animation decomposes its ends, and each array was a heap
    /// allocation); every operation is the one the algorithm states, in its
    /// order, so the same doubles come out.
    public init?(_ input: Transform3D) {
        var m = input
        guard m.m44 != 0, m.isFinite else { return nil }
        let norm = m.m44
        m.divide(by: norm)

        var pm = m
        pm.m14 = 0; pm.m24 = 0; pm.m34 = 0; pm.m44 = 1
        // (Transform3D.inverted's own test: the same determinant, not 0 and finite.)
        let det = pm.determinant
        guard abs(det) > 1e-12, det.isFinite else { return nil }

        if m.m14 != 0 || m.m24 != 0 || m.m34 != 0, let inverse = pm.inverted {
            // M = A * P with P's last column p: p = A^-1 * column 3 of M.
            func p(_ i: Int) -> Double {
                var sum = 0.0
                sum += inverse[i, 0] * m.m14
                sum += inverse[i, 1] * m.m24
                sum += inverse[i, 2] * m.m34
                sum += inverse[i, 3] * m.m44
                return sum
            }
            perspective = (p(0), p(1), p(2), p(3))
        }
        translation = (m.m41, m.m42, m.m43)

        var r0 = Row3(m.m11, m.m12, m.m13), r1 = Row3(m.m21, m.m22, m.m23), r2 = Row3(m.m31, m.m32, m.m33)
        var sx = r0.length; r0 = r0.normalized
        var sxy = r0.dot(r1); r1 = Row3.combine(r1, r0, 1, -sxy)
        var sy = r1.length; r1 = r1.normalized; sxy /= sy
        var sxz = r0.dot(r2); r2 = Row3.combine(r2, r0, 1, -sxz)
        let syz0 = r1.dot(r2); r2 = Row3.combine(r2, r1, 1, -syz0)
        var sz = r2.length; r2 = r2.normalized; sxz /= sz
        let syz = syz0 / sz
        if r0.dot(r1.cross(r2)) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            r0 = r0.negated; r1 = r1.negated; r2 = r2.negated
        }
        scale = (sx, sy, sz)
        // Skew terms were measured on unit rows; express them for the matrix
        // Skew * Rotation whose rows are R1 + k * R0, and so on.
        skew = (sxy, sxz, syz)
        quaternion = DecomposedTransform.quaternion(r0, r1, r2)
    }

    /// The quaternion of a row-vector rotation matrix R (= C^T of the usual
    /// column-vector matrix C).
    static func quaternion(rows r: [[Double]]) -> (x: Double, y: Double, z: Double, w: Double) {
        quaternion(Row3(r[0][0], r[0][1], r[0][2]), Row3(r[1][0], r[1][1], r[1][2]), Row3(r[2][0], r[2][1], r[2][2]))
    }

    fileprivate static func quaternion(_ r0: Row3, _ r1: Row3, _ r2: Row3) -> (x: Double, y: Double, z: Double, w: Double) {
        var x = 0.5 * max(1 + r0.x - r1.y - r2.z, 0).squareRoot()
        var y = 0.5 * max(1 - r0.x + r1.y - r2.z, 0).squareRoot()
        var z = 0.5 * max(1 - r0.x - r1.y + r2.z, 0).squareRoot()
        let w = 0.5 * max(1 + r0.x + r1.y + r2.z, 0).squareRoot()
        if r1.z < r2.y { x = -x }
        if r2.x < r0.z { y = -y }
        if r0.y < r1.x { z = -z }
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
                // Every rotation has two such triples: (x, y, z) and (x + pi,
                // pi - y, z + pi). The one turning least about x and z is
                // kept, so a turn about y alone reads as that turn even past
                // pi/2 (asin gives |y| <= pi/2 only): setting or animating
                // transform.rotation.y on a card already turned 2 rad then
                // replaces its turn, where it gave pi - angle.
                let x = atan2(r.m23, r.m33), z = atan2(r.m12, r.m11)
                func wrapped(_ a: Double) -> Double { a > .pi ? a - 2 * .pi : (a <= -.pi ? a + 2 * .pi : a) }
                let ax = wrapped(x + .pi), az = wrapped(z + .pi), ay = (y >= 0 ? Double.pi : -Double.pi) - y
                if abs(ax) + abs(az) < abs(x) + abs(z) - 1e-12 { return (ax, ay, az) }
                return (x, y, z)
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

/// A row of the 3x3 part, worked in place of an array of three.
private struct Row3 {
    var x, y, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    var length: Double { (x * x + y * y + z * z).squareRoot() }
    var normalized: Row3 {
        let l = length
        return l == 0 ? self : Row3(x / l, y / l, z / l)
    }
    var negated: Row3 { Row3(-x, -y, -z) }
    func dot(_ b: Row3) -> Double { x * b.x + y * b.y + z * b.z }
    func cross(_ b: Row3) -> Row3 { Row3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    static func combine(_ a: Row3, _ b: Row3, _ sa: Double, _ sb: Double) -> Row3 {
        Row3(sa * a.x + sb * b.x, sa * a.y + sb * b.y, sa * a.z + sb * b.z)
    }
}
