import Glibc
import Testing
@testable import LayerKitCore

/// How far a mitered stroke reaches beyond its path (S7.1): the content
/// image of a shape layer is sized by it.
@Suite struct StrokeReachTests {
    private func wave() -> PathData {
        var p = PathData()
        p.move(to: Point(x: 40, y: 20))
        _ = p.curve(control1: Point(x: 100, y: -10), control2: Point(x: 200, y: 50), to: Point(x: 260, y: 20))
        p.addArc(center: Point(x: 260, y: 40), radius: 20, start: -Double.pi / 2, end: 0, clockwise: true)
        _ = p.line(to: Point(x: 280, y: 260))
        p.addArc(center: Point(x: 260, y: 260), radius: 20, start: 0, end: Double.pi / 2, clockwise: true)
        _ = p.line(to: Point(x: 40, y: 280))
        p.addArc(center: Point(x: 40, y: 260), radius: 20, start: Double.pi / 2, end: Double.pi, clockwise: true)
        _ = p.line(to: Point(x: 20, y: 40))
        p.addArc(center: Point(x: 40, y: 40), radius: 20, start: Double.pi, end: 1.5 * Double.pi, clockwise: true)
        p.close()
        return p
    }

    @Test func aRectangleMitersBySquareRootOfTwo() {
        var p = PathData()
        p.move(to: Point(x: 0, y: 0))
        _ = p.line(to: Point(x: 10, y: 0))
        _ = p.line(to: Point(x: 10, y: 10))
        _ = p.line(to: Point(x: 0, y: 10))
        p.close()
        #expect(abs(p.miterReach(limit: 10, curvesAsLines: false) - 2.0.squareRoot()) < 1e-9)
        // a limit well below √2 bevels the corners
        #expect(p.miterReach(limit: 1.2, curvesAsLines: false) == 1)
        // just below it, the rasterizer's rounding may still miter: counted
        #expect(abs(p.miterReach(limit: 1.4, curvesAsLines: false) - 2.0.squareRoot()) < 1e-9)
    }

    @Test func aSharpJoinReachesItsMiterUpToTheLimit() {
        // a V whose arms meet at 20 degrees: the miter is 1 / sin(10°) = 5.76 half widths
        var p = PathData()
        p.move(to: Point(x: 0, y: 0))
        _ = p.line(to: Point(x: 100, y: 0))
        _ = p.line(to: Point(x: 100 - 100 * cos(Double.pi / 9), y: 100 * sin(Double.pi / 9)))
        let miter = 1 / sin(Double.pi / 18)
        #expect(abs(p.miterReach(limit: 10, curvesAsLines: false) - miter) < 1e-9)
        #expect(p.miterReach(limit: 5, curvesAsLines: false) == 1)   // beyond the limit: a bevel
    }

    @Test func aCurveWithACuspMitersToTheLimitOnlyWhenDashed() {
        // the control polygon turns back on itself: a dashed stroke may join
        // the flattened pieces sharply; a plain one joins them with round fans
        var p = PathData()
        p.move(to: Point(x: 0, y: 0))
        _ = p.curve(control1: Point(x: 100, y: 0), control2: Point(x: 0, y: 1), to: Point(x: 100, y: 1))
        #expect(p.miterReach(limit: 10, curvesAsLines: true) == 10 * 1.05)
        #expect(p.miterReach(limit: 10, curvesAsLines: false) == 1)
        // a gentle curve stays near 1 even dashed: its control polygon turns by 45 degrees
        var q = PathData()
        q.move(to: Point(x: 0, y: 0))
        _ = q.curve(control1: Point(x: 50, y: 0), control2: Point(x: 100, y: 0), to: Point(x: 150, y: 50))
        #expect(abs(q.miterReach(limit: 10, curvesAsLines: true) - 1 / cos(Double.pi / 8)) < 1e-9)
    }

    @Test func aSmoothPathKeepsItsContentImageTight() throws {
        let path = wave()
        // joins are tangent except where the wave meets the first arc (a 26.6 degree turn)
        #expect(path.miterReach(limit: 10, curvesAsLines: false) < 1.1)
        var shape = ShapeState()
        shape.path = Path(path)
        shape.strokeColor = Color(r: 1, g: 1, b: 1, a: 1)
        shape.lineWidth = 3
        let out = try #require(ContentRasterizer.shape(shape, bounds: Rect(x: 0, y: 0, width: 300, height: 300), scale: 1))
        // the path's box grown by about 1.5 (the stroke) and 1 (anti-aliasing), not by 15
        #expect(out.rect.minX >= 17 && out.rect.maxX <= 283)
        #expect(out.image.width <= 266)
    }
}
