import Glibc

/// A 4x4 transform in Core Animation's layout: points are row vectors
/// multiplied on the left (`p' = p * M`), translation in m41...m43,
/// perspective in m14/m24/m34.
public struct Transform3D: Equatable, Sendable {
    public var m11 = 1.0, m12 = 0.0, m13 = 0.0, m14 = 0.0
    public var m21 = 0.0, m22 = 1.0, m23 = 0.0, m24 = 0.0
    public var m31 = 0.0, m32 = 0.0, m33 = 1.0, m34 = 0.0
    public var m41 = 0.0, m42 = 0.0, m43 = 0.0, m44 = 1.0

    public static let identity = Transform3D()
    public init() {}

    /// Row-major elements, m11 first.
    public init(_ e: [Double]) {
        precondition(e.count == 16)
        (m11, m12, m13, m14) = (e[0], e[1], e[2], e[3])
        (m21, m22, m23, m24) = (e[4], e[5], e[6], e[7])
        (m31, m32, m33, m34) = (e[8], e[9], e[10], e[11])
        (m41, m42, m43, m44) = (e[12], e[13], e[14], e[15])
    }

    /// Row-major elements read in place (a display list op's transform):
    /// no array is made.
    init(_ e: UnsafeBufferPointer<Double>) {
        precondition(e.count == 16)
        (m11, m12, m13, m14) = (e[0], e[1], e[2], e[3])
        (m21, m22, m23, m24) = (e[4], e[5], e[6], e[7])
        (m31, m32, m33, m34) = (e[8], e[9], e[10], e[11])
        (m41, m42, m43, m44) = (e[12], e[13], e[14], e[15])
    }

    public var elements: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    subscript(row: Int, column: Int) -> Double {
        get { withUnsafeBytes(of: self) { $0.load(fromByteOffset: (row * 4 + column) * 8, as: Double.self) } }
        set { withUnsafeMutableBytes(of: &self) { $0.storeBytes(of: newValue, toByteOffset: (row * 4 + column) * 8, as: Double.self) } }
    }

    /// Element by element, in place (no copy of either matrix).
    public var isIdentity: Bool {
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0 &&
            m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m41 == 0 && m42 == 0 && m43 == 0 && m44 == 1
    }
    /// Every element finite, read in place (no array).
    /// (x * 0 is 0 exactly when x is finite: NaN and infinities give NaN,
    /// which the sum keeps; no branch per element, for every op a frame
    /// builds.)
    var isFinite: Bool {
        withUnsafeBytes(of: self) { raw in
            var zero = SIMD4<Double>()
            for i in 0..<4 { zero += raw.loadUnaligned(fromByteOffset: i * 32, as: SIMD4<Double>.self) * 0 }
            return zero[0] + zero[1] + zero[2] + zero[3] == 0
        }
    }

    /// Every element divided by `k`, in place.
    mutating func divide(by k: Double) {
        withUnsafeMutableBytes(of: &self) { raw in
            for i in 0..<16 {
                raw.storeBytes(of: raw.load(fromByteOffset: i * 8, as: Double.self) / k, toByteOffset: i * 8, as: Double.self)
            }
        }
    }

    /// True when the transform only acts in the xy plane (CATransform3DIsAffine).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 &&
            m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
    }

    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var t = Transform3D()
        t.m41 = tx; t.m42 = ty; t.m43 = tz
        return t
    }

    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        var t = Transform3D()
        t.m11 = sx; t.m22 = sy; t.m33 = sz
        return t
    }

    /// CATransform3DMakeRotation: positive angles about +z turn clockwise on a
    /// y-down screen. A zero-length axis gives the identity.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite, angle.isFinite else { return .identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        var r = Transform3D()
        r.m11 = t * x * x + c; r.m12 = t * x * y + z * s; r.m13 = t * x * z - y * s
        r.m21 = t * x * y - z * s; r.m22 = t * y * y + c; r.m23 = t * y * z + x * s
        r.m31 = t * x * z + y * s; r.m32 = t * y * z - x * s; r.m33 = t * z * z + c
        return r
    }

    /// `self` then `other`: p * self * other.
    /// Only a translation (the identity with a last row of offsets).
    var isTranslation: Bool {
        m11 == 1 && m12 == 0 && m13 == 0 && m14 == 0 && m21 == 0 && m22 == 1 && m23 == 0 && m24 == 0 &&
            m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m44 == 1
    }

    public func concatenating(_ other: Transform3D) -> Transform3D {
        // Followed by a translation (a layer's superlayer placed by an
        // offset, the common case): the product's values without the product.
        if other.isTranslation { return thenTranslating(other.m41, other.m42, other.m43) }
        var r = Transform3D()
        r.m11 = m11 * other.m11 + m12 * other.m21 + m13 * other.m31 + m14 * other.m41
        r.m12 = m11 * other.m12 + m12 * other.m22 + m13 * other.m32 + m14 * other.m42
        r.m13 = m11 * other.m13 + m12 * other.m23 + m13 * other.m33 + m14 * other.m43
        r.m14 = m11 * other.m14 + m12 * other.m24 + m13 * other.m34 + m14 * other.m44
        r.m21 = m21 * other.m11 + m22 * other.m21 + m23 * other.m31 + m24 * other.m41
        r.m22 = m21 * other.m12 + m22 * other.m22 + m23 * other.m32 + m24 * other.m42
        r.m23 = m21 * other.m13 + m22 * other.m23 + m23 * other.m33 + m24 * other.m43
        r.m24 = m21 * other.m14 + m22 * other.m24 + m23 * other.m34 + m24 * other.m44
        r.m31 = m31 * other.m11 + m32 * other.m21 + m33 * other.m31 + m34 * other.m41
        r.m32 = m31 * other.m12 + m32 * other.m22 + m33 * other.m32 + m34 * other.m42
        r.m33 = m31 * other.m13 + m32 * other.m23 + m33 * other.m33 + m34 * other.m43
        r.m34 = m31 * other.m14 + m32 * other.m24 + m33 * other.m34 + m34 * other.m44
        r.m41 = m41 * other.m11 + m42 * other.m21 + m43 * other.m31 + m44 * other.m41
        r.m42 = m41 * other.m12 + m42 * other.m22 + m43 * other.m32 + m44 * other.m42
        r.m43 = m41 * other.m13 + m42 * other.m23 + m43 * other.m33 + m44 * other.m43
        r.m44 = m41 * other.m14 + m42 * other.m24 + m43 * other.m34 + m44 * other.m44
        return r
    }

    /// self = self.thenTranslating(tx, ty, tz), in place.
    mutating func translate(_ tx: Double, _ ty: Double, _ tz: Double) {
        m11 += m14 * tx; m12 += m14 * ty; m13 += m14 * tz
        m21 += m24 * tx; m22 += m24 * ty; m23 += m24 * tz
        m31 += m34 * tx; m32 += m34 * ty; m33 += m34 * tz
        m41 += m44 * tx; m42 += m44 * ty; m43 += m44 * tz
    }

    /// Translation by (tx, ty, tz) followed by self (CATransform3DTranslate).
    public func translatedBy(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        Transform3D.translation(tx, ty, tz).concatenating(self)
    }

    /// A pure translation by (tx, ty, tz) after self, cheaper than a full product.
    /// translation(tx, ty, tz).concatenating(self) without the matrix
    /// product: only the last row changes, computed as the product does.
    func preTranslated(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var r = self
        r.m41 = tx * m11 + ty * m21 + tz * m31 + m41
        r.m42 = tx * m12 + ty * m22 + tz * m32 + m42
        r.m43 = tx * m13 + ty * m23 + tz * m33 + m43
        r.m44 = tx * m14 + ty * m24 + tz * m34 + m44
        return r
    }

    /// preTranslated, thenTranslating and flattened in place: a layer's
    /// placement, without a copy of the matrix per step.
    mutating func place(preTranslation p: (Double, Double, Double), translation t: (Double, Double, Double),
                        flatten: Bool) {
        let (px, py, pz) = p, (tx, ty, tz) = t
        let r41 = px * m11 + py * m21 + pz * m31 + m41
        let r42 = px * m12 + py * m22 + pz * m32 + m42
        let r43 = px * m13 + py * m23 + pz * m33 + m43
        let r44 = px * m14 + py * m24 + pz * m34 + m44
        (m41, m42, m43, m44) = (r41, r42, r43, r44)
        m11 += m14 * tx; m12 += m14 * ty; m13 += m14 * tz
        m21 += m24 * tx; m22 += m24 * ty; m23 += m24 * tz
        m31 += m34 * tx; m32 += m34 * ty; m33 += m34 * tz
        m41 += m44 * tx; m42 += m44 * ty; m43 += m44 * tz
        if flatten {
            m13 = 0; m23 = 0; m43 = 0; m33 = 1
            m31 = 0; m32 = 0; m34 = 0
        }
    }

    func thenTranslating(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var r = self
        r.translate(tx, ty, tz)
        return r
    }

    /// The 2x2 minors of the top two rows (s) and the bottom two rows (c),
    /// from which both the determinant and the inverse are built: six
    /// doubles each, as tuples (arrays were two heap allocations a call).
    private typealias Minors = (Double, Double, Double, Double, Double, Double)
    private var minors: (s: Minors, c: Minors) {
        let a = self
        return ((a.m11 * a.m22 - a.m21 * a.m12, a.m11 * a.m23 - a.m21 * a.m13, a.m11 * a.m24 - a.m21 * a.m14,
                 a.m12 * a.m23 - a.m22 * a.m13, a.m12 * a.m24 - a.m22 * a.m14, a.m13 * a.m24 - a.m23 * a.m14),
                (a.m31 * a.m42 - a.m41 * a.m32, a.m31 * a.m43 - a.m41 * a.m33, a.m31 * a.m44 - a.m41 * a.m34,
                 a.m32 * a.m43 - a.m42 * a.m33, a.m32 * a.m44 - a.m42 * a.m34, a.m33 * a.m44 - a.m43 * a.m34))
    }

    private static func determinant(_ s: Minors, _ c: Minors) -> Double {
        s.0 * c.5 - s.1 * c.4 + s.2 * c.3 + s.3 * c.2 - s.4 * c.1 + s.5 * c.0
    }

    public var determinant: Double {
        let (s, c) = minors
        return Transform3D.determinant(s, c)
    }

    /// The inverse, or nil when the transform is singular.
    public var inverted: Transform3D? {
        let a = self
        let (s, c) = minors
        let (s0, s1, s2, s3, s4, s5) = s
        let (c0, c1, c2, c3, c4, c5) = c
        let det = Transform3D.determinant(s, c)
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        var r = Transform3D()
        r.m11 = (a.m22 * c5 - a.m23 * c4 + a.m24 * c3) * k
        r.m12 = (-a.m12 * c5 + a.m13 * c4 - a.m14 * c3) * k
        r.m13 = (a.m42 * s5 - a.m43 * s4 + a.m44 * s3) * k
        r.m14 = (-a.m32 * s5 + a.m33 * s4 - a.m34 * s3) * k
        r.m21 = (-a.m21 * c5 + a.m23 * c2 - a.m24 * c1) * k
        r.m22 = (a.m11 * c5 - a.m13 * c2 + a.m14 * c1) * k
        r.m23 = (-a.m41 * s5 + a.m43 * s2 - a.m44 * s1) * k
        r.m24 = (a.m31 * s5 - a.m33 * s2 + a.m34 * s1) * k
        r.m31 = (a.m21 * c4 - a.m22 * c2 + a.m24 * c0) * k
        r.m32 = (-a.m11 * c4 + a.m12 * c2 - a.m14 * c0) * k
        r.m33 = (a.m41 * s4 - a.m42 * s2 + a.m44 * s0) * k
        r.m34 = (-a.m31 * s4 + a.m32 * s2 - a.m34 * s0) * k
        r.m41 = (-a.m21 * c3 + a.m22 * c1 - a.m23 * c0) * k
        r.m42 = (a.m11 * c3 - a.m12 * c1 + a.m13 * c0) * k
        r.m43 = (-a.m41 * s3 + a.m42 * s1 - a.m43 * s0) * k
        r.m44 = (a.m31 * s3 - a.m32 * s1 + a.m33 * s0) * k
        return r
    }

    /// Maps a point of the z = 0 plane and divides by w. nil behind the eye (w <= 0).
    func project(_ p: Point) -> Point? {
        let w = p.x * m14 + p.y * m24 + m44
        guard w > 1e-12 else { return nil }
        return Point(x: (p.x * m11 + p.y * m21 + m41) / w, y: (p.x * m12 + p.y * m22 + m42) / w)
    }

    /// Collapses z so a subtree renders into its superlayer's plane (S6.3).
    var flattened: Transform3D {
        var r = self
        r.m13 = 0; r.m23 = 0; r.m43 = 0; r.m33 = 1
        r.m31 = 0; r.m32 = 0; r.m34 = 0
        return r
    }
}

// MARK: - Affine

public struct AffineTransform: Equatable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
}

extension Transform3D {
    /// CATransform3DMakeAffineTransform.
    public init(affine m: AffineTransform) {
        self.init()
        m11 = m.a; m12 = m.b; m21 = m.c; m22 = m.d; m41 = m.tx; m42 = m.ty
    }

    /// CATransform3DGetAffineTransform: the xy part, meaningful when isAffine.
    public var affine: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }
}
