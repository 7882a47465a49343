import Glibc
import Testing
@testable import LayerKitCore

@Suite struct TransformTests {
    @Test func rotationAboutZIsClockwiseOnScreenS1_0() {
        let r = Transform3D.rotation(.pi / 2, 0, 0, 1)
        #expect(near(r.m11, 0) && near(r.m12, 1) && near(r.m21, -1) && near(r.m22, 0))
        // (1, 0) turns to (0, 1): down on a y-down screen, i.e. clockwise.
        #expect(near(r.project(Point(x: 1, y: 0))!, Point(x: 0, y: 1)))
    }

    @Test func concatenationAppliesLeftFirst() {
        let t = Transform3D.translation(10, 0, 0).concatenating(.scale(2, 2, 1))
        #expect(near(t.project(Point(x: 1, y: 1))!, Point(x: 22, y: 2)))
        let u = Transform3D.scale(2, 2, 1).concatenating(.translation(10, 0, 0))
        #expect(near(u.project(Point(x: 1, y: 1))!, Point(x: 12, y: 2)))
    }

    @Test func inverseUndoes() throws {
        var rng = SplitMix(state: 7)
        for _ in 0..<200 {
            let t = Transform3D.rotation(rng.uniform(-3, 3), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
                .concatenating(.scale(rng.uniform(0.2, 3), rng.uniform(0.2, 3), rng.uniform(0.2, 3)))
                .concatenating(.translation(rng.uniform(-50, 50), rng.uniform(-50, 50), rng.uniform(-50, 50)))
            let inverse = try #require(t.inverted)
            #expect(near(t.concatenating(inverse), .identity, 1e-9))
        }
        #expect(Transform3D.scale(0, 1, 1).inverted == nil)
    }

    @Test func decompositionRecomposesS4_9() throws {
        var rng = SplitMix(state: 42)
        for _ in 0..<500 {
            var t = Transform3D.scale(rng.uniform(0.3, 2), rng.uniform(0.3, 2), rng.uniform(0.3, 2))
            t = t.concatenating(.rotation(rng.uniform(-3, 3), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.1, 1)))
            t = t.concatenating(.translation(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-10, 10)))
            var skew = Transform3D.identity
            skew.m21 = rng.uniform(-0.5, 0.5)
            t = skew.concatenating(t)
            if rng.next() % 2 == 0 { var p = Transform3D.identity; p.m34 = -1 / rng.uniform(200, 1000); t = t.concatenating(p) }
            let d = try #require(DecomposedTransform(t))
            // Homogeneous: the recomposition is t normalised to m44 = 1.
            let normalised = Transform3D(t.elements.map { $0 / t.m44 })
            #expect(near(d.transform, normalised, 1e-7), "\(t.elements)")
        }
    }

    /// The decomposition works rows as plain values, not arrays: it must
    /// give exactly the doubles of the textbook form (Graphics Gems II's
    /// unmatrix with arrays, written out here as the code had it), for
    /// skew, perspective, mirrored and homogeneous (m44 != 1) transforms.
    @Test func decompositionMatchesTheTextbookFormS4_9() throws {
        func textbook(_ input: Transform3D) -> DecomposedTransform? {
            var m = input
            guard m.m44 != 0, m.elements.allSatisfy(\.isFinite) else { return nil }
            let norm = m.m44
            for i in 0..<4 { for j in 0..<4 { m[i, j] /= norm } }
            var pm = m
            pm.m14 = 0; pm.m24 = 0; pm.m34 = 0; pm.m44 = 1
            guard abs(pm.determinant) > 1e-12, let inverse = pm.inverted else { return nil }
            var d = DecomposedTransform()
            if m.m14 != 0 || m.m24 != 0 || m.m34 != 0 {
                let rhs = [m.m14, m.m24, m.m34, m.m44]
                var p = [0.0, 0, 0, 0]
                for i in 0..<4 { for k in 0..<4 { p[i] += inverse[i, k] * rhs[k] } }
                d.perspective = (p[0], p[1], p[2], p[3])
            }
            d.translation = (m.m41, m.m42, m.m43)
            func length(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
            func normalized(_ v: [Double]) -> [Double] { let l = length(v); return l == 0 ? v : v.map { $0 / l } }
            func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
            func cross(_ a: [Double], _ b: [Double]) -> [Double] {
                [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
            }
            func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
                [sa * a[0] + sb * b[0], sa * a[1] + sb * b[1], sa * a[2] + sb * b[2]]
            }
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
            d.scale = (sx, sy, sz)
            d.skew = (sxy, sxz, syz)
            d.quaternion = DecomposedTransform.quaternion(rows: row)
            return d
        }
        func bits(_ d: DecomposedTransform?) -> [UInt64] {
            guard let d else { return [] }
            return [d.translation.x, d.translation.y, d.translation.z, d.scale.x, d.scale.y, d.scale.z,
                    d.skew.xy, d.skew.xz, d.skew.yz, d.quaternion.x, d.quaternion.y, d.quaternion.z, d.quaternion.w,
                    d.perspective.x, d.perspective.y, d.perspective.z, d.perspective.w].map(\.bitPattern)
        }
        var rng = SplitMix(state: 99)
        var compared = 0
        for i in 0..<3000 {
            var t = Transform3D.scale(rng.uniform(-2, 2), rng.uniform(0.3, 2), rng.uniform(-2, 2))
            t = t.concatenating(.rotation(rng.uniform(-7, 7), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)))
            t = t.concatenating(.translation(rng.uniform(-500, 500), rng.uniform(-500, 500), rng.uniform(-50, 50)))
            var skew = Transform3D.identity
            skew.m21 = rng.uniform(-0.5, 0.5)
            skew.m31 = i % 3 == 0 ? rng.uniform(-0.5, 0.5) : 0
            t = skew.concatenating(t)
            if i % 2 == 0 { var p = Transform3D.identity; p.m34 = -1 / rng.uniform(200, 1000); p.m14 = rng.uniform(-1e-3, 1e-3); t = t.concatenating(p) }
            if i % 5 == 0 { t.m44 = rng.uniform(0.5, 2) }
            if i % 7 == 0 { t = .rotation(rng.uniform(-7, 7), 0, 0, 1) }   // the common case
            if i % 11 == 0 { t.m11 = 0; t.m12 = 0; t.m13 = 0 }                // singular: nil both ways
            #expect(bits(DecomposedTransform(t)) == bits(textbook(t)), "\(t.elements)")
            compared += 1
        }
        #expect(compared == 3000)
        #expect(DecomposedTransform(Transform3D([1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1e300, 0, 0, 0, 0, 1])) == nil)
    }

    /// Without skew, the recomposition skips the two matrix products: it
    /// must give exactly what they give (and a pure z rotation, the common
    /// case, decomposes with no skew at all).
    @Test func skewFreeRecompositionMatchesTheProductsS4_9() throws {
        var rng = SplitMix(state: 7)
        for i in 0..<500 {
            var d = DecomposedTransform()
            d.scale = (rng.uniform(-2, 2), rng.uniform(0.3, 2), rng.uniform(0.3, 2))
            let q = (rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1))
            let n = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
            d.quaternion = (q.0 / n, q.1 / n, q.2 / n, q.3 / n)
            d.translation = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-10, 10))
            if i % 2 == 0 { d.perspective = (0, 0, -1 / rng.uniform(200, 1000), 1) }
            var products = Transform3D.scale(d.scale.x, d.scale.y, d.scale.z)
                .concatenating(.identity)
                .concatenating(DecomposedTransform.rotationMatrix(d.quaternion))
            products.m41 = d.translation.x; products.m42 = d.translation.y; products.m43 = d.translation.z
            if i % 2 == 0 {
                var p = Transform3D.identity
                p.m34 = d.perspective.z
                products = products.concatenating(p)
            }
            #expect(d.transform == products, "\(d)")
        }
        let z = try #require(DecomposedTransform(.rotation(0.7, 0, 0, 1)))
        #expect(z.skew == (0, 0, 0))
        #expect(near(z.transform, .rotation(0.7, 0, 0, 1), 1e-12))
    }

    /// A layer's placement pre-translates its transform by the anchor
    /// point; done without the product, it must give the product's values.
    @Test func preTranslationMatchesTheProduct() {
        var rng = SplitMix(state: 11)
        for _ in 0..<500 {
            let t = Transform3D((0..<16).map { _ in rng.uniform(-3, 3) })
            let (x, y, z) = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-10, 10))
            #expect(t.preTranslated(x, y, z) == Transform3D.translation(x, y, z).concatenating(t))
            let (u, v, w) = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-10, 10))
            for flatten in [false, true] {
                var placed = t
                placed.place(preTranslation: (x, y, z), translation: (u, v, w), flatten: flatten)
                let chained = t.preTranslated(x, y, z).thenTranslating(u, v, w)
                #expect(placed == (flatten ? chained.flattened : chained))
            }
        }
        #expect(Transform3D.identity.isIdentity && !Transform3D.translation(0, 0, 1e-300).isIdentity)
        // Followed by a translation: the shortcut gives the full product's values.
        for _ in 0..<500 {
            let t = Transform3D((0..<16).map { _ in rng.uniform(-3, 3) })
            let translation = Transform3D.translation(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-10, 10))
            var product = Transform3D()
            for i in 0..<4 {
                for j in 0..<4 {
                    product[i, j] = t[i, 0] * translation[0, j] + t[i, 1] * translation[1, j]
                        + t[i, 2] * translation[2, j] + t[i, 3] * translation[3, j]
                }
            }
            #expect(t.concatenating(translation) == product)
        }
    }

    @Test func eulerAnglesOfPureRotations() throws {
        let z = try #require(DecomposedTransform(.rotation(0.7, 0, 0, 1)))
        #expect(near(z.eulerAngles.z, 0.7) && near(z.eulerAngles.x, 0) && near(z.eulerAngles.y, 0))
        let x = try #require(DecomposedTransform(.rotation(-0.4, 1, 0, 0)))
        #expect(near(x.eulerAngles.x, -0.4) && near(x.eulerAngles.z, 0))
        let y = try #require(DecomposedTransform(.rotation(1.1, 0, 1, 0)))
        #expect(near(y.eulerAngles.y, 1.1))
        var d = DecomposedTransform()
        d.eulerAngles = (0.3, -0.2, 1.3)
        let back = d.eulerAngles
        #expect(near(back.x, 0.3) && near(back.y, -0.2) && near(back.z, 1.3))
        // Past pi/2 about y a turn reads as itself (not x = z = pi, y = pi -
        // angle, the same rotation), so replacing y replaces the turn.
        for angle in [2.0, 2.5, -2.5, .pi, 3.0, -3.0] {
            let turned = try #require(DecomposedTransform(.rotation(angle, 0, 1, 0)))
            let e = turned.eulerAngles
            #expect(near(e.x, 0, 1e-6) && near(e.z, 0, 1e-6) && near(e.y, angle, 1e-6), "\(angle): \(e)")
        }
        // Any rotation reads as a triple that rebuilds it.
        var rng = SplitMix(state: 11)
        for _ in 0..<200 {
            var r = DecomposedTransform()
            r.eulerAngles = (rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3))
            var again = DecomposedTransform()
            again.eulerAngles = r.eulerAngles
            #expect(near(again.transform, r.transform, 1e-9))
        }
    }

    @Test func affineRoundTrip() {
        let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = Transform3D(affine: a)
        #expect(t.isAffine && t.affine == a)
        var p = t; p.m34 = -0.002
        #expect(!p.isAffine)
    }
}
