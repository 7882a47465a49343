import Glibc

/// lk_calculation_mode (S4.10), in C order.
public enum CalculationMode: Int32, Sendable {
    case linear = 0, discrete, paced, cubic, cubicPaced
}

/// lk_rotation_mode (S4.10), in C order.
public enum RotationMode: Int32, Sendable {
    case none = 0, auto, autoReverse
}

/// What a keyframe animation is given (S4.10).
public struct KeyframeParameters: Sendable {
    public var values: [Value] = []
    /// When set, the animation follows it and `values` are ignored.
    public var path: PathData?
    public var keyTimes: [Double] = []
    public var timingFunctions: [TimingFunction] = []
    public var calculationMode = CalculationMode.linear
    public var rotationMode = RotationMode.none
    public var tensionValues: [Double] = []
    public var continuityValues: [Double] = []
    public var biasValues: [Double] = []

    public init() {}
}

/// A keyframe animation made ready when added: key times resolved, values
/// turned into vectors for the spline and paced modes, the path measured.
/// Immutable, like the animation it belongs to.
final class KeyframeTrack: @unchecked Sendable {
    private let mode: CalculationMode
    private let values: [Value]
    /// Componentwise form of `values` (nil for types that have none).
    private let vectors: [[Double]]?
    private let keyTimes: [Double]
    private let timingFunctions: [TimingFunction]
    private let tension: [Double], continuity: [Double], bias: [Double]
    private let rotationMode: RotationMode
    private let measure: PathMeasure?
    /// cubicPaced: arc length samples of the spline, for constant speed.
    private let pacedSpline: (params: [Double], distances: [Double])?
    /// paced: the distance between successive values.
    private let pacedLengths: [Double]

    /// Paced modes move at constant speed: Apple's kCAAnimationPaced and
    /// kCAAnimationCubicPaced ignore keyTimes and the animation's
    /// timingFunction (S4.10: "paced ignores keyTimes and timing functions").
    var ignoresTimingFunction: Bool { mode == .paced || mode == .cubicPaced }

    /// Checks the arrays (S4.10) against each other and the key path's type;
    /// the message names the array and the index.
    init(_ k: KeyframeParameters, valueType: ValueType, keyPath: String) throws(LayerKitError) {
        let mode = k.calculationMode
        self.mode = mode
        rotationMode = k.rotationMode
        timingFunctions = k.timingFunctions
        tension = k.tensionValues; continuity = k.continuityValues; bias = k.biasValues
        let count: Int
        if let path = k.path {
            guard valueType == .point else {
                throw LayerKitError(.typeMismatch, "path: a keyframe path animates a point key path; \"\(keyPath)\" takes \(valueType)")
            }
            let m = PathMeasure(path)
            guard !m.segments.isEmpty else {
                throw LayerKitError(.invalidArgument, "path: the path draws nothing (it needs a line or curve after its moveto)")
            }
            measure = m
            let points: [Value] = [.point(m.segments[0].start)] + m.segments.map { .point($0.end) }
            values = points
            count = points.count
        } else {
            guard !k.values.isEmpty else {
                throw LayerKitError(.invalidArgument, "values: a keyframe animation needs values or a path")
            }
            for (i, v) in k.values.enumerated() where v.type != valueType {
                throw LayerKitError(.typeMismatch, "values[\(i)]: \"\(keyPath)\" takes \(valueType), got \(v.type)")
            }
            measure = nil
            values = k.values
            count = k.values.count
        }
        let expected = mode == .discrete ? count + 1 : count
        if !k.keyTimes.isEmpty && mode != .paced && mode != .cubicPaced {
            guard k.keyTimes.count == expected else {
                throw LayerKitError(.invalidArgument,
                    "keyTimes: \(k.keyTimes.count) entries for \(count) \(k.path != nil ? "path points" : "values"); needs \(expected) (\(mode == .discrete ? "discrete mode: values + 1" : "one per value"))")
            }
            for (i, t) in k.keyTimes.enumerated() {
                guard t.isFinite, t >= 0, t <= 1 else {
                    throw LayerKitError(.invalidArgument, "keyTimes[\(i)]: \(t) is outside 0...1")
                }
                if i > 0 && t < k.keyTimes[i - 1] {
                    throw LayerKitError(.invalidArgument, "keyTimes[\(i)]: \(t) is less than keyTimes[\(i - 1)] (\(k.keyTimes[i - 1])); key times must not decrease")
                }
            }
            keyTimes = k.keyTimes
        } else {
            let n = max(expected - 1, 1)
            keyTimes = (0..<expected).map { Double($0) / Double(n) }
        }
        let segments = max(count - 1, 0)
        // (paced modes ignore them, as their keyTimes: no count to match)
        if !k.timingFunctions.isEmpty && k.timingFunctions.count != segments && mode != .paced && mode != .cubicPaced {
            throw LayerKitError(.invalidArgument,
                "timingFunctions: \(k.timingFunctions.count) entries for \(segments) segments; give one per segment (values - 1) or none")
        }
        for (name, array) in [("tensionValues", k.tensionValues), ("continuityValues", k.continuityValues), ("biasValues", k.biasValues)] {
            if !array.isEmpty && array.count != count {
                throw LayerKitError(.invalidArgument, "\(name): \(array.count) entries for \(count) values; give one per value or none")
            }
            if let i = array.firstIndex(where: { !$0.isFinite }) {
                throw LayerKitError(.invalidArgument, "\(name)[\(i)]: \(array[i]) is not finite")
            }
        }
        let vectors = KeyframeTrack.vectors(k.path == nil ? k.values : [])
        self.vectors = vectors
        if (mode == .cubic || mode == .cubicPaced) && k.path == nil && vectors == nil && count > 1 {
            throw LayerKitError(.typeMismatch, "values: cubic modes need numbers, points, sizes, rects or colours; \"\(keyPath)\" takes \(valueType)")
        }
        if (mode == .cubic || mode == .cubicPaced), let v = vectors, v.count > 1,
           !KeyframeTrack.tangentsFinite(v, (k.tensionValues, k.continuityValues, k.biasValues)) {
            // (tension 1e308 gave an infinite, then NaN, presentation value)
            throw LayerKitError(.invalidArgument, "values: the cubic spline through them overflows (with tensionValues, continuityValues and biasValues its tangents go beyond the largest double)")
        }
        pacedLengths = vectors.map { v in (0..<max(v.count - 1, 0)).map { KeyframeTrack.distance(v[$0], v[$0 + 1]) } } ?? []
        if k.calculationMode == .cubicPaced, k.path == nil, let v = vectors, v.count > 1 {
            pacedSpline = KeyframeTrack.splineSamples(v, (k.tensionValues, k.continuityValues, k.biasValues))
        } else {
            pacedSpline = nil
        }
        if k.calculationMode == .paced && k.path == nil && vectors == nil && count > 1 {
            throw LayerKitError(.typeMismatch, "values: paced mode needs numbers, points, sizes, rects or colours; \"\(keyPath)\" takes \(valueType)")
        }
    }

    // MARK: Evaluation

    /// The value at `progress` (0...1, after the animation's own timing
    /// function), and for path animations with a rotation mode the angle to
    /// turn the layer by.
    func value(at progress: Double) -> (Value, angle: Double?)? {
        let p = min(max(progress, 0), 1)
        if let measure { return pathValue(measure, p) }
        if values.count == 1 { return (values[0], nil) }
        switch mode {
        case .discrete:
            return (values[discreteIndex(p)], nil)
        case .linear:
            let (i, s) = segment(p)
            return Interpolation.interpolate(values[i], values[i + 1], s).map { ($0, nil) }
        case .paced:
            guard vectors != nil else { return nil }
            let (i, s) = pacedSegment(p)
            return Interpolation.interpolate(values[i], values[i + 1], s).map { ($0, nil) }
        case .cubic:
            guard let v = vectors else { return nil }
            let (i, s) = segment(p)
            return (KeyframeTrack.value(like: values[i], hermite(v, i, s)), nil)
        case .cubicPaced:
            guard let v = vectors, let samples = pacedSpline else { return nil }
            let u = KeyframeTrack.invert(samples, p)
            let n = Double(v.count - 1)
            let i = min(Int(u * n), v.count - 2)
            return (KeyframeTrack.value(like: values[i], hermite(v, i, u * n - Double(i))), nil)
        }
    }

    /// Discrete: the value whose key time interval holds p; the last at p = 1.
    private func discreteIndex(_ p: Double) -> Int {
        var i = 0
        while i + 1 < keyTimes.count && keyTimes[i + 1] <= p { i += 1 }
        return min(i, values.count - 1)
    }

    /// The segment holding p and the fraction into it, after the segment's
    /// timing function.
    private func segment(_ p: Double) -> (Int, Double) {
        let last = values.count - 2
        var i = 0
        while i < last && keyTimes[i + 1] <= p { i += 1 }
        let span = keyTimes[i + 1] - keyTimes[i]
        var s = span > 0 ? (p - keyTimes[i]) / span : (p >= keyTimes[i + 1] ? 1 : 0)
        s = min(max(s, 0), 1)
        if i < timingFunctions.count { s = timingFunctions[i].evaluate(s) }
        return (i, s)
    }

    /// Paced: segments take time in proportion to their length.
    private func pacedSegment(_ p: Double) -> (Int, Double) {
        let lengths = pacedLengths
        let total = lengths.reduce(0, +)
        guard total > 0 else { return (0, p) }
        var d = p * total
        for (i, l) in lengths.enumerated() {
            if d <= l || i == lengths.count - 1 { return (i, l > 0 ? min(d / l, 1) : 1) }
            d -= l
        }
        return (lengths.count - 1, 1)
    }

    /// True for path animations: `pathPoint(at:)` evaluates them without Values.
    var followsPath: Bool { measure != nil }

    private func pathValue(_ m: PathMeasure, _ p: Double) -> (Value, angle: Double?)? {
        pathPoint(at: p).map { (.point($0.point), $0.angle) }
    }

    /// A path animation's point at `progress`, and the angle to turn the
    /// layer by when it has a rotation mode.
    func pathPoint(at progress: Double) -> (point: Point, angle: Double?)? {
        guard let m = measure else { return nil }
        let p = min(max(progress, 0), 1)
        let position: (point: Point, angle: Double)
        switch mode {
        case .paced, .cubicPaced:
            guard let at = m.position(atDistance: p * m.length) else { return nil }
            position = at
        case .discrete:
            let i = discreteIndex(p)
            let segmentIndex = max(0, i - 1)
            let seg = m.segments[segmentIndex]
            position = (i == 0 ? seg.start : seg.end, seg.angle(at: i == 0 ? 0 : 1))
        case .linear, .cubic:
            // Each drawn segment is one keyframe interval, its own curve parameter the time.
            let (i, s) = segment(p)
            position = (m.segments[i].point(at: s), m.segments[i].angle(at: s))
        }
        let angle: Double? = switch rotationMode {
        case .none: nil
        case .auto: position.angle
        case .autoReverse: position.angle + Double.pi
        }
        return (position.point, angle)
    }

    // MARK: Kochanek-Bartels spline

    /// Hermite interpolation on segment i with Kochanek-Bartels tangents;
    /// the end keyframes repeat themselves as their missing neighbours.
    private func hermite(_ v: [[Double]], _ i: Int, _ s: Double) -> [Double] {
        KeyframeTrack.hermite(v, i, s, (tension, continuity, bias))
    }

    private static func hermite(_ v: [[Double]], _ i: Int, _ s: Double,
                                _ tcb: (tension: [Double], continuity: [Double], bias: [Double])) -> [Double] {
        let (tension, continuity, bias) = tcb
        let n = v.count
        let p0 = v[max(i - 1, 0)], p1 = v[i], p2 = v[i + 1], p3 = v[min(i + 2, n - 1)]
        func param(_ a: [Double], _ j: Int) -> Double { j < a.count ? a[j] : 0 }
        let (t1, c1, b1) = (param(tension, i), param(continuity, i), param(bias, i))
        let (t2, c2, b2) = (param(tension, i + 1), param(continuity, i + 1), param(bias, i + 1))
        let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
        let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
        var out = [Double](repeating: 0, count: p1.count)
        for k in 0..<p1.count {
            // Outgoing tangent at p1, incoming tangent at p2.
            let out1 = (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k])
                + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[k] - p1[k])
            let in2 = (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k])
                + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[k] - p2[k])
            out[k] = h00 * p1[k] + h10 * out1 + h01 * p2[k] + h11 * in2
        }
        return out
    }

    /// Whether the spline's tangents (hermite's out1 and in2) are finite
    /// numbers: its points at five places of every segment are.
    private static func tangentsFinite(_ v: [[Double]], _ tcb: (tension: [Double], continuity: [Double], bias: [Double])) -> Bool {
        // out1 is hermite's slope at s = 0, in2 at s = 1: an infinite one
        // shows in every value near that end, and the points between mix them.
        for i in 0..<(v.count - 1) {
            for s in [1.0 / 1024, 0.25, 0.5, 0.75, 1 - 1.0 / 1024] where !hermite(v, i, s, tcb).allSatisfy(\.isFinite) {
                return false
            }
        }
        return true
    }

    /// Spline parameter u (0...1 over all segments) against arc length,
    /// sampled finely enough for constant speed to within 0.1%.
    private static func splineSamples(_ v: [[Double]], _ tcb: ([Double], [Double], [Double])) -> ([Double], [Double]) {
        let perSegment = 64
        let segments = v.count - 1
        var params: [Double] = [0], distances: [Double] = [0]
        var previous = v[0], total = 0.0
        for i in 0..<segments {
            for j in 1...perSegment {
                let s = Double(j) / Double(perSegment)
                let point = hermite(v, i, s, tcb)
                total += KeyframeTrack.distance(previous, point)
                previous = point
                params.append((Double(i) + s) / Double(segments))
                distances.append(total)
            }
        }
        return (params, distances)
    }

    private static func invert(_ samples: (params: [Double], distances: [Double]), _ p: Double) -> Double {
        let total = samples.distances.last ?? 0
        guard total > 0 else { return p }
        let d = p * total
        var lo = 0, hi = samples.distances.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples.distances[mid] <= d { lo = mid } else { hi = mid }
        }
        let span = samples.distances[hi] - samples.distances[lo]
        let f = span > 0 ? (d - samples.distances[lo]) / span : 0
        return samples.params[lo] + (samples.params[hi] - samples.params[lo]) * f
    }

    // MARK: Values as vectors

    private static func vectors(_ values: [Value]) -> [[Double]]? {
        var out: [[Double]] = []
        for v in values {
            switch v {
            case .number(let x): out.append([x])
            case .point(let p): out.append([p.x, p.y])
            case .size(let s): out.append([s.width, s.height])
            case .rect(let r): out.append([r.origin.x, r.origin.y, r.size.width, r.size.height])
            case .color(let c): out.append([c.r * c.a, c.g * c.a, c.b * c.a, c.a])  // premultiplied, as S4.9
            default: return nil
            }
        }
        return out
    }

    private static func value(like v: Value, _ x: [Double]) -> Value {
        switch v {
        case .number: return .number(x[0])
        case .point: return .point(Point(x: x[0], y: x[1]))
        case .size: return .size(Size(width: x[0], height: x[1]))
        case .rect: return .rect(Rect(x: x[0], y: x[1], width: x[2], height: x[3]))
        case .color:
            let a = min(max(x[3], 0), 1)
            guard a > 0 else { return .color(.clear) }
            func unit(_ c: Double) -> Double { min(max(c, 0), a) / a }
            return .color(Color(r: unit(x[0]), g: unit(x[1]), b: unit(x[2]), a: a))
        default: return v
        }
    }

    /// Euclidean, in units of the largest difference (squared, differences
    /// of 1e300 overflowed: a paced animation along them went to NaN).
    private static func distance(_ a: [Double], _ b: [Double]) -> Double {
        var largest = 0.0
        for k in 0..<a.count { largest = max(largest, abs(b[k] - a[k])) }
        guard largest > 0, largest.isFinite else { return largest }
        var sum = 0.0
        for k in 0..<a.count { let d = (b[k] - a[k]) / largest; sum += d * d }
        return largest * sum.squareRoot()
    }
}
