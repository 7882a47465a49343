/// The named timing functions, in lk_timing_name order (S4.7).
public enum TimingFunctionName: Int32, CaseIterable, Sendable {
    case linear = 0, easeIn, easeOut, easeInEaseOut, `default`

    /// Core Animation's names (kCAMediaTimingFunctionEaseIn is "easeIn", ...).
    public var name: String {
        switch self {
        case .linear: "linear"
        case .easeIn: "easeIn"
        case .easeOut: "easeOut"
        case .easeInEaseOut: "easeInEaseOut"
        case .default: "default"
        }
    }

    public init?(name: String) {
        guard let n = TimingFunctionName.allCases.first(where: { $0.name == name }) else { return nil }
        self = n
    }

    /// The control points c1x, c1y, c2x, c2y (S4.7).
    public var controlPoints: (c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        switch self {
        case .linear: (0, 0, 1, 1)
        case .easeIn: (0.42, 0, 1, 1)
        case .easeOut: (0, 0, 0.58, 1)
        case .easeInEaseOut: (0.42, 0, 0.58, 1)
        case .default: (0.25, 0.1, 0.25, 1)
        }
    }
}

/// lk_timing_function: a cubic Bézier from (0,0) to (1,1) with two control
/// points, mapping the fraction of an iteration's time to the fraction of its
/// change (S4.7). Immutable, so one instance can be shared by any number of
/// animations and threads.
public final class TimingFunction: Object, @unchecked Sendable {
    public let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    // Polynomial coefficients: x(t) = ((ax t + bx) t + cx) t, likewise y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    /// Control points on the diagonal make y(t) = x(t): the identity.
    private let isLinear: Bool

    /// The caller validates the control points (`validate`); with x outside
    /// 0...1 the curve is not a function of x and `evaluate` returns one of
    /// its values.
    public init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        self.c1x = c1x; self.c1y = c1y; self.c2x = c2x; self.c2y = c2y
        cx = 3 * c1x; bx = 3 * (c2x - c1x) - cx; ax = 1 - cx - bx
        cy = 3 * c1y; by = 3 * (c2y - c1y) - cy; ay = 1 - cy - by
        isLinear = c1x == c1y && c2x == c2y
        super.init(kind: .timingFunction)
    }

    /// x of both control points within 0...1 (so x(t) is monotone and the
    /// curve a function of x) and every coordinate finite. y may leave 0...1:
    /// that is overshoot.
    public static func validate(c1x: Double, c1y: Double, c2x: Double, c2y: Double) throws(LayerKitError) {
        for (name, v) in [("c1x", c1x), ("c1y", c1y), ("c2x", c2x), ("c2y", c2y)] where !v.isFinite {
            throw .invalid("\(name): must be finite (got \(v))")
        }
        for (name, v) in [("c1x", c1x), ("c2x", c2x)] where !(0...1).contains(v) {
            throw .invalid("\(name): must be within 0...1 (got \(v))")
        }
    }

    // Swift initialises static stored properties once, atomically, on first
    // use; the table lives for the life of the process.
    private static let namedFunctions: [TimingFunction] = TimingFunctionName.allCases.map { name in
        let c = name.controlPoints
        return TimingFunction(c1x: c.c1x, c1y: c.c1y, c2x: c.c2x, c2y: c.c2y)
    }

    /// The shared instance of a named function.
    public static func named(_ name: TimingFunctionName) -> TimingFunction {
        namedFunctions[Int(name.rawValue)]
    }

    /// Control point 0...3 as CAMediaTimingFunction's getControlPointAtIndex:
    /// (0,0), c1, c2, (1,1); nil for another index.
    public func controlPoint(at index: Int) -> Point? {
        switch index {
        case 0: Point(x: 0, y: 0)
        case 1: Point(x: c1x, y: c1y)
        case 2: Point(x: c2x, y: c2y)
        case 3: Point(x: 1, y: 1)
        default: nil
        }
    }

    /// y for a given x (S4.7): x is clamped to 0...1, the curve parameter t
    /// with x(t) = x is found to within 1e-12 in x, and y(t) returned. The ends
    /// are exact: 0 gives 0, 1 gives 1.
    public func evaluate(_ x: Double) -> Double {
        guard !x.isNaN else { return 0 }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if isLinear { return x }
        return curveY(solveT(x))
    }

    func curveX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func curveY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// t in 0...1 with x(t) = x. Newton's method kept inside a bracket that
    /// shrinks every step, bisecting whenever a Newton step would leave the
    /// bracket or the slope vanishes (x'(t) is 0 at an end for curves such as
    /// easeIn, and may be 0 inside for c1x = 1, c2x = 0). With x(t) monotone
    /// (control x within 0...1) the bracket always holds the root.
    func solveT(_ x: Double) -> Double {
        let tolerance = 1e-12
        var lo = 0.0, hi = 1.0
        var t = x
        for _ in 0..<100 {
            let error = curveX(t) - x
            if abs(error) < tolerance { return t }
            if error < 0 { lo = t } else { hi = t }
            if hi - lo < 1e-15 { break }
            let slope = slopeX(t)
            var next = slope != 0 ? t - error / slope : .nan
            if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
            t = next
        }
        return t
    }
}
