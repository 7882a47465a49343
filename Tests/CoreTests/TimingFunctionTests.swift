import Glibc
import Testing
@testable import LayerKitCore

/// The cubic Bézier in Bernstein form, written independently of
/// TimingFunction's polynomial form.
private func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
}

private let overshoot = (c1x: 0.68, c1y: -0.55, c2x: 0.265, c2y: 1.55)

@Suite struct TimingFunctionTests {
    @Test func namedCurvesS4_7() {
        let expected: [(TimingFunctionName, [Double])] = [
            (.linear, [0, 0, 1, 1]),
            (.easeIn, [0.42, 0, 1, 1]),
            (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]),
            (.default, [0.25, 0.1, 0.25, 1]),
        ]
        #expect(expected.map { $0.0 } == TimingFunctionName.allCases)
        for (name, points) in expected {
            let f = TimingFunction.named(name)
            #expect([f.c1x, f.c1y, f.c2x, f.c2y] == points, "\(name)")
            #expect(f.kind == .timingFunction)
            #expect(f.controlPoint(at: 0) == Point(x: 0, y: 0))
            #expect(f.controlPoint(at: 1) == Point(x: points[0], y: points[1]))
            #expect(f.controlPoint(at: 2) == Point(x: points[2], y: points[3]))
            #expect(f.controlPoint(at: 3) == Point(x: 1, y: 1))
            #expect(f.controlPoint(at: 4) == nil)
            #expect(TimingFunctionName(name: name.name) == name)
        }
        #expect(TimingFunctionName.linear.rawValue == 0 && TimingFunctionName.default.rawValue == 4)
        #expect(TimingFunctionName(name: "bounce") == nil)
    }

    @Test func namedInstancesAreSharedS4_7() async {
        let first = TimingFunction.named(.easeIn)
        #expect(TimingFunction.named(.easeIn) === first)
        #expect(TimingFunction.named(.easeOut) !== first)
        let fromTasks = await withTaskGroup(of: [UInt].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    TimingFunctionName.allCases.map { UInt(bitPattern: TimingFunction.named($0).handle) }
                }
            }
            return await group.reduce(into: Set<[UInt]>()) { $0.insert($1) }
        }
        #expect(fromTasks.count == 1)
    }

    /// Sample t densely, compute x(t) and y(t) independently, and check that
    /// evaluate(x(t)) gives y(t).
    @Test func evaluateMatchesDenseInversionS4_7() {
        var curves = TimingFunctionName.allCases.map { TimingFunction.named($0) }
        curves.append(TimingFunction(c1x: overshoot.c1x, c1y: overshoot.c1y, c2x: overshoot.c2x, c2y: overshoot.c2y))
        var rng = SplitMix(state: 11)
        for _ in 0..<20 {
            // x control points away from the (1, 0) corner keep x'(t) > 0 inside,
            // so y is a well-conditioned function of x.
            curves.append(TimingFunction(c1x: rng.uniform(0.05, 0.95), c1y: rng.uniform(-1, 2),
                                         c2x: rng.uniform(0.05, 0.95), c2y: rng.uniform(-1, 2)))
        }
        for f in curves {
            var worst = 0.0
            for i in 0...20_000 {
                let t = Double(i) / 20_000
                let x = bezier(f.c1x, f.c2x, t), y = bezier(f.c1y, f.c2y, t)
                worst = max(worst, abs(f.evaluate(x) - y))
            }
            #expect(worst <= 1e-6, "(\(f.c1x), \(f.c1y), \(f.c2x), \(f.c2y)): off by \(worst)")
        }
    }

    /// The solver meets the x precision for any valid curve, including ones
    /// whose x'(t) vanishes inside (c1x = 1, c2x = 0) or at an end.
    @Test func solverPrecisionInXS4_7() {
        var rng = SplitMix(state: 5)
        var curves = [TimingFunction(c1x: 1, c1y: 0, c2x: 0, c2y: 1), TimingFunction(c1x: 0, c1y: 1, c2x: 1, c2y: 0)]
        for _ in 0..<50 {
            curves.append(TimingFunction(c1x: rng.uniform(0, 1), c1y: rng.uniform(-2, 3),
                                         c2x: rng.uniform(0, 1), c2y: rng.uniform(-2, 3)))
        }
        for f in curves {
            for i in 1..<1000 {
                let x = Double(i) / 1000
                let t = f.solveT(x)
                #expect((0...1).contains(t))
                #expect(abs(bezier(f.c1x, f.c2x, t) - x) <= 1e-7, "(\(f.c1x), \(f.c2x)) at \(x)")
            }
        }
    }

    @Test func monotoneS4_7() {
        for name in TimingFunctionName.allCases {
            let f = TimingFunction.named(name)
            var previousX = 0.0, previousY = 0.0
            for i in 0...2000 {
                let t = Double(i) / 2000
                let x = bezier(f.c1x, f.c2x, t)
                #expect(x >= previousX, "x(t) of \(name) at \(t)")
                previousX = x
                let y = f.evaluate(Double(i) / 2000)
                #expect(y >= previousY - 1e-12, "\(name) at \(t)")
                previousY = y
            }
        }
    }

    @Test func overshootLeavesUnitRangeS4_7() throws {
        try TimingFunction.validate(c1x: overshoot.c1x, c1y: overshoot.c1y, c2x: overshoot.c2x, c2y: overshoot.c2y)
        let f = TimingFunction(c1x: overshoot.c1x, c1y: overshoot.c1y, c2x: overshoot.c2x, c2y: overshoot.c2y)
        let ys = (0...1000).map { f.evaluate(Double($0) / 1000) }
        #expect(ys.min()! < -0.05)
        #expect(ys.max()! > 1.05)
        #expect(f.evaluate(0) == 0 && f.evaluate(1) == 1)
    }

    @Test func endpointsExactAndClampedS4_7() {
        var curves = TimingFunctionName.allCases.map { TimingFunction.named($0) }
        curves.append(TimingFunction(c1x: overshoot.c1x, c1y: overshoot.c1y, c2x: overshoot.c2x, c2y: overshoot.c2y))
        for f in curves {
            #expect(f.evaluate(0) == 0)
            #expect(f.evaluate(1) == 1)
            #expect(f.evaluate(-0.5) == 0)
            #expect(f.evaluate(1.5) == 1)
            #expect(f.evaluate(.infinity) == 1)
            #expect(f.evaluate(.nan) == 0)
        }
        let linear = TimingFunction.named(.linear)
        for x in [0.1, 0.25, 1.0 / 3, 0.9] { #expect(linear.evaluate(x) == x) }
        // Known values: easeInEaseOut is symmetric about (0.5, 0.5).
        let ease = TimingFunction.named(.easeInEaseOut)
        #expect(near(ease.evaluate(0.5), 0.5, 1e-12))
        #expect(near(ease.evaluate(0.2) + ease.evaluate(0.8), 1, 1e-12))
    }

    @Test func validationMessagesS4_7() {
        func message(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) -> LayerKitError? {
            do {
                try TimingFunction.validate(c1x: c1x, c1y: c1y, c2x: c2x, c2y: c2y)
                return nil
            } catch { return error }
        }
        #expect(message(1.5, 0, 1, 1) == LayerKitError(.invalidArgument, "c1x: must be within 0...1 (got 1.5)"))
        #expect(message(0, 0, -0.25, 1)?.message == "c2x: must be within 0...1 (got -0.25)")
        #expect(message(0, .nan, 1, 1)?.message == "c1y: must be finite (got nan)")
        #expect(message(0, 0, 1, .infinity)?.message == "c2y: must be finite (got inf)")
        #expect(message(.infinity, 0, 1, 1)?.message == "c1x: must be finite (got inf)")
        // y outside 0...1 is overshoot, and the x ends of the range are valid.
        #expect(message(0, -3, 1, 4) == nil)
        #expect(message(1, 0, 0, 1) == nil)
    }
}
