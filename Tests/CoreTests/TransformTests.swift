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
    }

    @Test func affineRoundTrip() {
        let a = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = Transform3D(affine: a)
        #expect(t.isAffine && t.affine == a)
        var p = t; p.m34 = -0.002
        #expect(!p.isAffine)
    }
}
