import Glibc
import Testing
@testable import LayerKitCore

@Suite struct PathTests {
    @Test func boundsAreTightAroundCurves() {
        var p = PathData()
        p.move(to: Point(x: 0, y: 150))
        _ = p.curve(control1: Point(x: 75, y: 0), control2: Point(x: 225, y: 300), to: Point(x: 300, y: 150))
        let b = p.bounds
        // Extremes of the cubic lie strictly inside its control polygon.
        #expect(near(b.minX, 0) && near(b.maxX, 300))
        #expect(b.minY > 0 && b.minY < 150 && b.maxY > 150 && b.maxY < 300)
        #expect(near(b.minY, 150 - (b.maxY - 150), 1e-9)) // symmetric curve
    }

    @Test func shapesAndArcs() {
        var r = PathData()
        r.addRoundedRect(Rect(x: 10, y: 20, width: 100, height: 50), rx: 10, ry: 10)
        #expect(near(r.bounds, Rect(x: 10, y: 20, width: 100, height: 50)))
        var e = PathData()
        e.addEllipse(in: Rect(x: 0, y: 0, width: 40, height: 20))
        #expect(near(e.bounds, Rect(x: 0, y: 0, width: 40, height: 20), 1e-9))
        var a = PathData()
        a.addArc(center: Point(x: 0, y: 0), radius: 10, start: 0, end: .pi / 2, clockwise: true)
        // Clockwise on a y-down screen from +x to +y: a quarter in the lower right.
        #expect(near(a.bounds, Rect(x: 0, y: 0, width: 10, height: 10), 1e-9))
    }

    @Test func linesNeedACurrentPoint() {
        var p = PathData()
        let without = p.line(to: Point(x: 1, y: 1))
        #expect(!without && p.isEmpty)
        p.move(to: .zero)
        let with = p.line(to: Point(x: 1, y: 1))
        #expect(with)
    }
}
