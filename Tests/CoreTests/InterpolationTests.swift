import Glibc
import Testing
@testable import LayerKitCore

private func near(_ a: Color, _ b: Color, _ eps: Double = 1e-12) -> Bool {
    near(a.r, b.r, eps) && near(a.g, b.g, eps) && near(a.b, b.b, eps) && near(a.a, b.a, eps)
}

private func near(_ a: Value?, _ b: Value, _ eps: Double = 1e-9) -> Bool {
    switch (a, b) {
    case let (.number(x)?, .number(y)): near(x, y, eps)
    case let (.point(x)?, .point(y)): near(x, y, eps)
    case let (.size(x)?, .size(y)): near(x.width, y.width, eps) && near(x.height, y.height, eps)
    case let (.rect(x)?, .rect(y)): near(x, y, eps)
    case let (.color(x)?, .color(y)): near(x, y, eps)
    case let (.transform(x)?, .transform(y)): near(x, y, eps)
    default: a == b
    }
}

private func lerp(_ a: Value, _ b: Value, _ p: Double) -> Value? { Interpolation.interpolate(a, b, p) }

private let red = Color(r: 1, g: 0, b: 0, a: 1)
private let blue = Color(r: 0, g: 0, b: 1, a: 1)

@Suite struct InterpolationTests {
    @Test func numbersS4_9() {
        #expect(lerp(.number(0), .number(10), 0.25) == .number(2.5))
        #expect(lerp(.number(10), .number(0), 0.25) == .number(7.5))
        // Overshoot extrapolates.
        #expect(lerp(.number(0), .number(10), 1.2) == .number(12))
        #expect(lerp(.number(0), .number(10), -0.5) == .number(-5))
        // Ends are exact, whatever the rounding in between.
        #expect(lerp(.number(0.1), .number(0.7), 1) == .number(0.7))
        #expect(lerp(.number(0.1), .number(0.7), 0) == .number(0.1))
        #expect(lerp(.number(0.3), .number(0.3), 0.37) == .number(0.3))
    }

    @Test func pointsSizesRectsComponentwiseS4_9() {
        #expect(near(lerp(.point(Point(x: 0, y: 10)), .point(Point(x: 10, y: -10)), 0.75), .point(Point(x: 7.5, y: -5))))
        #expect(near(lerp(.size(Size(width: 10, height: 20)), .size(Size(width: 20, height: 0)), 0.5),
                     .size(Size(width: 15, height: 10))))
        #expect(near(lerp(.rect(Rect(x: 0, y: 0, width: 10, height: 10)), .rect(Rect(x: 10, y: 20, width: 30, height: 50)), 0.5),
                     .rect(Rect(x: 5, y: 10, width: 20, height: 30))))
        #expect(near(lerp(.point(.zero), .point(Point(x: 10, y: 10)), 1.1), .point(Point(x: 11, y: 11))))
    }

    @Test func coloursPremultipliedS4_9() {
        // Clear to opaque red: red throughout, alpha rising; no darkening.
        #expect(near(lerp(.color(.clear), .color(red), 0.5), .color(Color(r: 1, g: 0, b: 0, a: 0.5))))
        #expect(near(lerp(.color(.clear), .color(red), 0.1), .color(Color(r: 1, g: 0, b: 0, a: 0.1))))
        // none is clear.
        #expect(near(lerp(.none, .color(red), 0.5), .color(Color(r: 1, g: 0, b: 0, a: 0.5))))
        #expect(near(lerp(.color(red), .none, 0.25), .color(Color(r: 1, g: 0, b: 0, a: 0.75))))
        #expect(lerp(.none, .color(red), 0) == Value.none)
        #expect(lerp(.color(red), .none, 1) == Value.none)
        // A fading colour contributes nothing of its hue once gone.
        let fadingBlue = Color(r: 0, g: 0, b: 1, a: 0)
        #expect(near(lerp(.color(red), .color(fadingBlue), 0.5), .color(Color(r: 1, g: 0, b: 0, a: 0.5))))
        // Opaque colours mix as usual.
        #expect(near(lerp(.color(red), .color(blue), 0.5), .color(Color(r: 0.5, g: 0, b: 0.5, a: 1))))
        // Half-transparent white to opaque black: premultiplied (0.5, 0.5) → (0, 1).
        let mid = lerp(.color(Color(r: 1, g: 1, b: 1, a: 0.5)), .color(.black), 0.5)
        #expect(near(mid, .color(Color(r: 1.0 / 3, g: 1.0 / 3, b: 1.0 / 3, a: 0.75))))
    }

    /// S4.8 additive colours: offsets with alpha 0 keep their colour between
    /// the ends (premultiplied, every value between was (0,0,0,0): the
    /// animation added nothing while it ran, then jumped at its end).
    @Test func transparentEndsInterpolateStraightS4_8() {
        let offset = Color(r: 0.4, g: 0, b: 0.2, a: 0)
        #expect(near(lerp(.color(.clear), .color(offset), 0.5), .color(Color(r: 0.2, g: 0, b: 0.1, a: 0))))
        let same = Color(r: 0.1, g: 0.1, b: 0.1, a: 0)
        #expect(near(lerp(.color(same), .color(same), 0.5), .color(same)))
    }

    @Test func colourOvershootIsClampedS4_9() {
        let grey = Color(r: 0.5, g: 0.5, b: 0.5, a: 0.5)
        let white = Color(r: 1, g: 1, b: 1, a: 1)
        #expect(near(lerp(.color(grey), .color(white), 1.5), .color(white)))
        #expect(near(lerp(.color(grey), .color(white), -2), .color(Color(r: 0, g: 0, b: 0, a: 0))))
        let c = lerp(.color(.black), .color(white), 1.3)
        #expect(near(c, .color(white)))
        if case let .color(v)? = lerp(.color(red), .color(blue), -0.4) {
            #expect([v.r, v.g, v.b, v.a].allSatisfy { (0...1).contains($0) })
            #expect(near(v, red))
        } else {
            Issue.record("not a colour")
        }
    }

    @Test func halfTurnPassesThroughQuarterTurnS4_9() {
        let half = lerp(.transform(.rotation(.pi, 0, 0, 1)), .transform(.identity), 0.5)
        #expect(near(half, .transform(.rotation(.pi / 2, 0, 0, 1))))
        #expect(near(lerp(.transform(.identity), .transform(.rotation(.pi, 0, 0, 1)), 0.5),
                     .transform(.rotation(.pi / 2, 0, 0, 1))))
        #expect(near(lerp(.transform(.identity), .transform(.rotation(-.pi, 0, 0, 1)), 0.5),
                     .transform(.rotation(-.pi / 2, 0, 0, 1))))
        #expect(near(lerp(.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)), 0.5),
                     .transform(.rotation(.pi / 4, 0, 0, 1))))
        #expect(near(lerp(.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)), 0.25),
                     .transform(.rotation(.pi / 8, 0, 0, 1))))
        #expect(near(lerp(.transform(.identity), .transform(.rotation(.pi / 2, 1, 0, 0)), 0.5),
                     .transform(.rotation(.pi / 4, 1, 0, 0))))
        // The shorter arc: from 170° to -170° goes through 180°, not 0°.
        let d = Double.pi / 18
        #expect(near(lerp(.transform(.rotation(.pi - d, 0, 0, 1)), .transform(.rotation(-.pi + d, 0, 0, 1)), 0.5),
                     .transform(.rotation(.pi, 0, 0, 1))))
        // Overshoot turns further.
        #expect(near(lerp(.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)), 1.2),
                     .transform(.rotation(0.6 * .pi, 0, 0, 1))))
    }

    @Test func scaleRotateTranslateMidwayS4_9() {
        // Row vectors: scale, then rotate, then translate.
        let end = Transform3D.scale(3, 2, 1).concatenating(.rotation(.pi / 2, 0, 0, 1)).concatenating(.translation(100, 50, 10))
        let start = Transform3D.translation(-20, 10, 0)
        let expected = Transform3D.scale(2, 1.5, 1).concatenating(.rotation(.pi / 4, 0, 0, 1)).concatenating(.translation(40, 30, 5))
        #expect(near(lerp(.transform(start), .transform(end), 0.5), .transform(expected)))
        // Ends exactly as given.
        #expect(lerp(.transform(start), .transform(end), 1) == .transform(end))
        #expect(lerp(.transform(start), .transform(end), 0) == .transform(start))
    }

    @Test func perspectiveInterpolatesS4_9() {
        var p = Transform3D.identity
        p.m34 = -1.0 / 500
        var expected = Transform3D.identity
        expected.m34 = -1.0 / 1000
        #expect(near(lerp(.transform(.identity), .transform(p), 0.5), .transform(expected), 1e-12))
        // Perspective with a turn about y, as a card flip.
        let flip = Transform3D.rotation(.pi / 2, 0, 1, 0).concatenating(p)
        let quarter = Transform3D.rotation(.pi / 4, 0, 1, 0).concatenating(expected)
        #expect(near(lerp(.transform(.identity), .transform(flip), 0.5), .transform(quarter)))
    }

    @Test func undecomposableTransformsSwitchS4_9() {
        let flat = Transform3D.scale(0, 1, 1)
        let turned = Transform3D.rotation(1, 0, 0, 1)
        #expect(lerp(.transform(flat), .transform(turned), 0.49) == .transform(flat))
        #expect(lerp(.transform(flat), .transform(turned), 0.5) == .transform(turned))
        #expect(lerp(.transform(turned), .transform(flat), 0.2) == .transform(turned))
    }

    @Test func discreteTypesSwitchAtHalfS4_9() throws {
        var pixel: UInt32 = 0xFF00_00FF
        let image = try Image(width: 1, height: 1, stride: 4, format: .argb32Premultiplied, pixels: &pixel)
        let otherImage = try Image(width: 1, height: 1, stride: 4, format: .argb32Premultiplied, pixels: &pixel)
        // Paths with different elements switch (the same elements morph, S7.1).
        let line = Path(), curve = Path() // two elements against three
        line.data.move(to: Point(x: 0, y: 0))
        _ = line.data.line(to: Point(x: 10, y: 0))
        curve.data.move(to: Point(x: 0, y: 0))
        _ = curve.data.line(to: Point(x: 5, y: 5))
        _ = curve.data.line(to: Point(x: 10, y: 0))
        let pairs: [(Value, Value)] = [
            (.bool(false), .bool(true)),
            (.string("a"), .string("b")),
            (.image(image), .image(otherImage)),
            (.path(line), .path(curve)),
            (.layer(Layer()), .layer(Layer())),
            (.none, .none),
            (.none, .image(image)),
            (.path(Path()), .none),
            (.none, .layer(Layer())),
            (.string("x"), .none),
        ]
        for (a, b) in pairs {
            for p in [-0.5, 0, 0.25, 0.4999] { #expect(lerp(a, b, p) == a, "\(a.type) at \(p)") }
            for p in [0.5, 0.75, 1, 1.5] { #expect(lerp(a, b, p) == b, "\(a.type) at \(p)") }
        }
    }

    @Test func mismatchedTypesAreNilS4_9() throws {
        let pairs: [(Value, Value)] = [
            (.number(1), .point(.zero)),
            (.none, .number(1)),
            (.color(red), .number(1)),
            (.bool(true), .string("true")),
            (.size(.zero), .rect(.zero)),
            (.transform(.identity), .number(0)),
            (.image(try Image(width: 1, height: 1, stride: 4, format: .argb32Premultiplied, pixels: [UInt32(0)])), .path(Path())),
        ]
        for (a, b) in pairs {
            #expect(lerp(a, b, 0.5) == nil, "\(a.type) and \(b.type)")
            #expect(lerp(b, a, 0.5) == nil, "\(b.type) and \(a.type)")
            #expect(Interpolation.add(a, b) == nil)
            #expect(Interpolation.subtract(a, b) == nil)
        }
        for v: Value in [.bool(true), .string("s"), .none, .path(Path())] {
            #expect(Interpolation.add(v, v) == nil)
            #expect(Interpolation.scale(v, by: 2) == nil)
        }
    }

    @Test func addAndSubtractAreInversesS4_8() {
        var rng = SplitMix(state: 9)
        func r() -> Double { rng.uniform(-100, 100) }
        func c() -> Double { rng.uniform(0, 1) }
        for _ in 0..<200 {
            var values: [(Value, Value)] = [
                (.number(r()), .number(r())),
                (.point(Point(x: r(), y: r())), .point(Point(x: r(), y: r()))),
                (.size(Size(width: r(), height: r())), .size(Size(width: r(), height: r()))),
                (.rect(Rect(x: r(), y: r(), width: r(), height: r())), .rect(Rect(x: r(), y: r(), width: r(), height: r()))),
                (.color(Color(r: c(), g: c(), b: c(), a: c())), .color(Color(r: c(), g: c(), b: c(), a: c()))),
            ]
            let ta = Transform3D.rotation(rng.uniform(-3, 3), r(), r(), r())
                .concatenating(.scale(rng.uniform(0.5, 2), rng.uniform(0.5, 2), 1)).concatenating(.translation(r(), r(), r()))
            let tb = Transform3D.rotation(rng.uniform(-3, 3), r(), r(), r()).concatenating(.translation(r(), r(), 0))
            values.append((.transform(ta), .transform(tb)))
            for (a, b) in values {
                let difference = Interpolation.subtract(a, b)!
                #expect(near(Interpolation.add(difference, b), a, 1e-9), "\(a.type)")
                if case .color = a { continue }  // sums clamp, so only the first identity holds
                #expect(near(Interpolation.subtract(Interpolation.add(a, b)!, b), a, 1e-9), "\(a.type)")
            }
        }
    }

    @Test func addComponentwiseS4_8() {
        #expect(Interpolation.add(.number(2), .number(3)) == .number(5))
        #expect(Interpolation.add(.point(Point(x: 1, y: 2)), .point(Point(x: 10, y: 20))) == .point(Point(x: 11, y: 22)))
        #expect(Interpolation.add(.size(Size(width: 1, height: 2)), .size(Size(width: 3, height: 4))) == .size(Size(width: 4, height: 6)))
        #expect(Interpolation.add(.rect(Rect(x: 1, y: 2, width: 3, height: 4)), .rect(Rect(x: 1, y: 1, width: 1, height: 1)))
            == .rect(Rect(x: 2, y: 3, width: 4, height: 5)))
        // Colours: straight components, clamped; none counts as clear.
        let sum = Interpolation.add(.color(Color(r: 0.8, g: 0.2, b: 0, a: 0.5)), .color(Color(r: 0.5, g: 0.1, b: 0, a: 0.75)))
        #expect(near(sum, .color(Color(r: 1, g: 0.3, b: 0, a: 1))))
        #expect(Interpolation.add(.none, .color(red)) == .color(red))
        #expect(near(Interpolation.subtract(.color(red), .color(blue)), .color(Color(r: 1, g: 0, b: -1, a: 0))))
        #expect(Interpolation.subtract(.transform(.identity), .transform(.scale(0, 1, 1))) == nil)
    }

    /// add(model, animated): the animated transform applies in the layer's own
    /// frame, before the model transform.
    @Test func additiveTransformsComposeS4_8() {
        let model = Transform3D.rotation(.pi / 4, 0, 0, 1)
        let sum = Interpolation.add(.transform(model), .transform(.rotation(.pi / 2, 0, 0, 1)))
        #expect(near(sum, .transform(.rotation(3 * .pi / 4, 0, 0, 1))))
        // An additive translation of a layer turned a quarter: along its own x
        // axis, which points down the screen (y down, clockwise turns).
        guard case let .transform(moved)? = Interpolation.add(.transform(.rotation(.pi / 2, 0, 0, 1)),
                                                               .transform(.translation(10, 0, 0))) else {
            Issue.record("not a transform"); return
        }
        #expect(near(moved.project(.zero)!, Point(x: 0, y: 10)))
        #expect(near(moved, Transform3D.translation(10, 0, 0).concatenating(.rotation(.pi / 2, 0, 0, 1))))
        // by + to: from = to - by, and from + by is to again.
        let to = Transform3D.scale(2, 2, 1).concatenating(.translation(5, 0, 0))
        let by = Transform3D.rotation(0.3, 0, 0, 1)
        let from = Interpolation.subtract(.transform(to), .transform(by))!
        #expect(near(Interpolation.add(from, .transform(by)), .transform(to)))
    }

    @Test func scaleForCumulativeS4_8() {
        #expect(Interpolation.scale(.number(3), by: 4) == .number(12))
        #expect(Interpolation.scale(.point(Point(x: 1, y: -2)), by: 3) == .point(Point(x: 3, y: -6)))
        #expect(Interpolation.scale(.size(Size(width: 1, height: 2)), by: 2) == .size(Size(width: 2, height: 4)))
        #expect(Interpolation.scale(.rect(Rect(x: 1, y: 2, width: 3, height: 4)), by: 0) == .rect(.zero))
        #expect(Interpolation.scale(.color(Color(r: 0.1, g: 0.2, b: 0.3, a: 0.4)), by: 5)
            == .color(Color(r: 0.5, g: 1, b: 1.5, a: 2)))
        #expect(near(Interpolation.scale(.transform(.rotation(0.3, 0, 0, 1)), by: 3), .transform(.rotation(0.9, 0, 0, 1))))
        #expect(near(Interpolation.scale(.transform(.rotation(0.4, 1, 2, 3)), by: 2), .transform(.rotation(0.8, 1, 2, 3))))
        #expect(near(Interpolation.scale(.transform(.translation(10, 5, -1)), by: 3), .transform(.translation(30, 15, -3))))
        #expect(near(Interpolation.scale(.transform(.scale(2, 3, 1)), by: 2), .transform(.scale(4, 9, 1))))
        let mixed = Transform3D.scale(2, 0.5, 1).concatenating(.rotation(0.7, 0, 0, 1)).concatenating(.translation(3, 4, 0))
        #expect(near(Interpolation.scale(.transform(mixed), by: 0), .transform(.identity)))
        #expect(near(Interpolation.scale(.transform(mixed), by: 1), .transform(mixed)))
        // k times v is v added to itself k - 1 times, for one kind of part at a time.
        for v: Value in [.number(2.5), .point(Point(x: 1, y: 2)), .transform(.rotation(0.5, 0, 0, 1)),
                         .transform(.translation(3, 4, 5)), .transform(.scale(1.5, 2, 1))] {
            #expect(near(Interpolation.scale(v, by: 2), Interpolation.add(v, v)!), "\(v.type)")
            #expect(near(Interpolation.scale(v, by: 3), Interpolation.add(Interpolation.add(v, v)!, v)!), "\(v.type)")
        }
        #expect(Interpolation.scale(.transform(.scale(0, 1, 1)), by: 2) == nil)
    }
}
