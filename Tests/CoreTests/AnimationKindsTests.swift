import Glibc
import Testing
@testable import LayerKitCore

/// The pure parts of keyframe, spring and path animations (S4.10, S4.11):
/// checked against properties of the mathematics, not against the code.
@Suite struct AnimationKindsTests {
    /// The spring's solution satisfies m x'' + c x' + k (x - 1) = 0 with
    /// x(0) = 0, x'(0) = v, in every regime (finite differences).
    @Test func springSolvesItsEquation() {
        for (m, k, c, v) in [(1.0, 100.0, 10.0, 0.0), (1, 100, 20, 0), (2, 50, 40, 3), (1, 100, 2, -4), (0.5, 300, 24.494897427831781, 1)] {
            var s = SpringParameters()
            (s.mass, s.stiffness, s.damping, s.initialVelocity) = (m, k, c, v)
            let h = 1e-4
            #expect(s.fraction(at: 0) == 0)
            #expect(abs((s.fraction(at: h) - s.fraction(at: 0)) / h - v) < 0.05 * max(1, abs(v)) + 0.01)
            for t in stride(from: 0.05, through: 1.5, by: 0.05) {
                let x0 = s.fraction(at: t - h), x1 = s.fraction(at: t), x2 = s.fraction(at: t + h)
                let residual = m * (x2 - 2 * x1 + x0) / (h * h) + c * (x2 - x0) / (2 * h) + k * (x1 - 1)
                #expect(abs(residual) < 1e-3 * k, "m \(m) k \(k) c \(c) t \(t): residual \(residual)")
            }
        }
    }

    @Test func settlingDurationBoundsTheMotion() {
        for damping in [1.0, 5, 10, 15, 20, 40, 80] {
            var s = SpringParameters()
            s.damping = damping
            s.initialVelocity = 2
            let d = s.settlingDuration
            #expect(d.isFinite && d > 0)
            for t in stride(from: d, to: d + 3, by: 0.002) {
                #expect(abs(s.fraction(at: t) - 1) <= SpringParameters.restFraction * (1 + 1e-9))
            }
        }
        var undamped = SpringParameters()
        undamped.damping = 0
        #expect(undamped.settlingDuration == .infinity)
    }

    @Test func measureFindsPointsByArcLength() {
        var p = PathData()
        p.move(to: Point(x: 0, y: 0))
        _ = p.line(to: Point(x: 10, y: 0))
        _ = p.quad(control: Point(x: 20, y: 0), to: Point(x: 20, y: 10))
        let m = PathMeasure(p)
        #expect(abs(m.length - (10 + m.lengths[1])) < 1e-12)
        // Walking the table's points back: distance -> point -> the length to it.
        for i in 1..<20 {
            let d = 10 + m.lengths[1] * Double(i) / 20
            guard let at = m.position(atDistance: d) else { Issue.record("no point"); continue }
            // Find the quad's parameter of that point by bisection on x (x grows along it).
            var lo = 0.0, hi = 1.0
            for _ in 0..<80 {
                let mid = (lo + hi) / 2
                if m.segments[1].point(at: mid).x < at.point.x { lo = mid } else { hi = mid }
            }
            #expect(abs(10 + m.segments[1].length(from: 0, to: lo) - d) < 1e-7)
        }
    }

    @Test func pathKeyframesMeetTheirEnds() throws {
        var p = PathData()
        p.move(to: Point(x: 0, y: 150))
        _ = p.curve(control1: Point(x: 75, y: 0), control2: Point(x: 225, y: 300), to: Point(x: 300, y: 150))
        var k = KeyframeParameters()
        k.path = p
        for mode in [CalculationMode.linear, .paced, .cubicPaced, .discrete] {
            k.calculationMode = mode
            let track = try KeyframeTrack(k, valueType: .point, keyPath: "position")
            #expect(track.value(at: 0)?.0 == .point(Point(x: 0, y: 150)))
            #expect(track.value(at: 1)?.0 == .point(Point(x: 300, y: 150)))
        }
    }

    @Test func cubicPassesThroughItsKeys() throws {
        var k = KeyframeParameters()
        k.values = [.number(0), .number(3), .number(-2), .number(8), .number(1)]
        k.keyTimes = [0, 0.1, 0.5, 0.6, 1]
        k.tensionValues = [0.2, -0.3, 0.5, 0, 1]
        k.continuityValues = [0, 0.4, -0.4, 0, 0]
        k.biasValues = [0.1, 0.1, -0.9, 0.3, 0]
        k.calculationMode = .cubic
        let track = try KeyframeTrack(k, valueType: .number, keyPath: "zPosition")
        for (t, v) in zip(k.keyTimes, k.values) {
            guard case .number(let got)? = track.value(at: t)?.0, case .number(let want) = v else {
                Issue.record("not a number"); continue
            }
            #expect(abs(got - want) < 1e-12, "at \(t): \(got) vs \(want)")
        }
    }

    /// Springs evaluate unboxed like basic animations: both paths agree (S4.8, S4.11).
    @Test func springTypedAndGeneralPathsAgree() throws {
        let combos: [(Value?, Value?, Value?)] = [
            (.point(Point(x: 1, y: 2)), .point(Point(x: 11, y: 22)), nil),
            (nil, .point(Point(x: 11, y: 22)), nil),
            (nil, nil, .point(Point(x: 5, y: -5))),
        ]
        for (from, to, by) in combos {
            for additive in [false, true] {
                let a = Animation(kind: .spring, keyPath: "position")
                (a.fromValue, a.toValue, a.byValue) = (from, to, by)
                a.additive = additive
                a.spring.damping = 4
                a.timing.duration = 2
                let (property, subpath) = try resolve("position")
                let record = AnimationRecord(key: "k", animation: a, previousValue: .point(Point(x: -3, y: 4)),
                                             runLoop: RunLoop.current, groups: [], property: property, subpath: subpath)
                #expect(record.fastTrack != nil)
                var model = LayerState()
                model.position = Point(x: 100, y: 200)
                for progress in [0.0, 0.1, 0.37, 1.0] {
                    var typed = model
                    withUnsafeMutablePointer(to: &typed) { s in
                        withUnsafePointer(to: model) { m in
                            record.fastTrack!.apply(a, progress: progress, iteration: 0, to: s, model: m)
                        }
                    }
                    let general = AnimationEvaluator.value(of: record, progress: progress, iteration: 0,
                                                           base: .point(model.position), model: { .point(model.position) })
                    #expect(general == .point(typed.position))
                }
            }
        }
    }
}
