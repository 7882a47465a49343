import Glibc

/// |(x, y)|: hypot's result without its cost where the squares neither
/// overflow nor lose precision (a line 1e160 long measured infinite, and a
/// paced animation along it went to NaN).
@inline(__always)
func magnitude(_ x: Double, _ y: Double) -> Double {
    let q = x * x + y * y
    return q < 1e290 && q > 1e-290 ? q.squareRoot() : hypot(x, y)
}

/// One drawn piece of a path, from its start point: what arc length,
/// point-at-distance and path animations walk along.
public enum PathSegment: Equatable, Sendable {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)

    public var start: Point {
        switch self {
        case .line(let a, _), .quad(let a, _, _), .cubic(let a, _, _, _): a
        }
    }

    public var end: Point {
        switch self {
        case .line(_, let b), .quad(_, _, let b), .cubic(_, _, _, let b): b
        }
    }

    /// The point at curve parameter t in 0...1.
    public func point(at t: Double) -> Point {
        let u = 1 - t
        switch self {
        case let .line(a, b):
            let p = Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            // (ends more than the largest double apart: b - a overflows)
            return p.isFinite ? p : Point(x: u * a.x + t * b.x, y: u * a.y + t * b.y)
        case let .quad(a, c, b):
            return Point(x: u * u * a.x + 2 * u * t * c.x + t * t * b.x,
                         y: u * u * a.y + 2 * u * t * c.y + t * t * b.y)
        case let .cubic(a, c1, c2, b):
            let (k0, k1, k2, k3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return Point(x: k0 * a.x + k1 * c1.x + k2 * c2.x + k3 * b.x,
                         y: k0 * a.y + k1 * c1.y + k2 * c2.y + k3 * b.y)
        }
    }

    /// The derivative with respect to t.
    public func derivative(at t: Double) -> Point {
        let u = 1 - t
        switch self {
        case let .line(a, b):
            return Point(x: b.x - a.x, y: b.y - a.y)
        case let .quad(a, c, b):
            return Point(x: 2 * u * (c.x - a.x) + 2 * t * (b.x - c.x),
                         y: 2 * u * (c.y - a.y) + 2 * t * (b.y - c.y))
        case let .cubic(a, c1, c2, b):
            return Point(x: 3 * u * u * (c1.x - a.x) + 6 * u * t * (c2.x - c1.x) + 3 * t * t * (b.x - c2.x),
                         y: 3 * u * u * (c1.y - a.y) + 6 * u * t * (c2.y - c1.y) + 3 * t * t * (b.y - c2.y))
        }
    }

    /// The direction of travel at t, in radians (atan2 of the tangent, so on
    /// a y-down surface positive angles turn clockwise, as rotations do).
    /// Where the derivative vanishes (a control point on an end point) the
    /// direction is taken a little way inside the curve, else from the chord.
    public func angle(at t: Double) -> Double {
        var d = derivative(at: t)
        if d.x * d.x + d.y * d.y < 1e-24 {
            d = derivative(at: min(max(t, 1e-4), 1 - 1e-4))
        }
        if d.x * d.x + d.y * d.y < 1e-24 {
            d = Point(x: end.x - start.x, y: end.y - start.y)
        }
        return atan2(d.y, d.x)
    }

    private func speed(_ t: Double) -> Double {
        let d = derivative(at: t)
        return magnitude(d.x, d.y)
    }

    /// Arc length from t = a to t = b: 8-point Gauss-Legendre on halves
    /// until two levels agree to 1e-9 relative (a line is exact at once).
    public func length(from a: Double = 0, to b: Double = 1) -> Double {
        if isFar { return PathSegment.scaledUp(scaledDown.lengthAsIs(from: a, to: b)) }
        return lengthAsIs(from: a, to: b)
    }

    /// Arc length over a short piece by one Gauss-Legendre rule.
    func shortLength(from a: Double, to b: Double) -> Double {
        if isFar { return PathSegment.scaledUp(scaledDown.shortLengthAsIs(from: a, to: b)) }
        return shortLengthAsIs(from: a, to: b)
    }

    private func lengthAsIs(from a: Double, to b: Double) -> Double {
        if case let .line(p, q) = self {
            return abs(b - a) * magnitude(q.x - p.x, q.y - p.y)
        }
        return adaptiveLength(a, b, gauss(a, b), depth: 0)
    }

    private func shortLengthAsIs(from a: Double, to b: Double) -> Double {
        if case .line = self { return lengthAsIs(from: a, to: b) }
        return gauss(a, b)
    }

    /// Points this far apart (in x or in y) or more may overflow what a
    /// length is made of: their difference (b - a), a cubic's derivative (up
    /// to 3 times the spread) and its hypot (a curve from 0 out to 1e308 and
    /// back measured infinite). Such a segment is measured scaled down by
    /// 2^-64 and the length scaled back up, exactly (powers of two) but for
    /// coordinates that become subnormal, which a length at least this
    /// large does not notice. Points close together, wherever they are,
    /// are measured as they are.
    private static let farSpread = 0x1p1016

    private var isFar: Bool {
        func far(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
            let x = max(max(a.x, b.x), max(c.x, d.x)) - min(min(a.x, b.x), min(c.x, d.x))
            let y = max(max(a.y, b.y), max(c.y, d.y)) - min(min(a.y, b.y), min(c.y, d.y))
            return x >= PathSegment.farSpread || y >= PathSegment.farSpread
        }
        switch self {
        case let .line(a, b): return far(a, b, b, b)
        case let .quad(a, c, b): return far(a, c, b, b)
        case let .cubic(a, c1, c2, b): return far(a, c1, c2, b)
        }
    }

    private var scaledDown: PathSegment {
        func s(_ p: Point) -> Point { Point(x: p.x * 0x1p-64, y: p.y * 0x1p-64) }
        switch self {
        case let .line(a, b): return .line(s(a), s(b))
        case let .quad(a, c, b): return .quad(s(a), s(c), s(b))
        case let .cubic(a, c1, c2, b): return .cubic(s(a), s(c1), s(c2), s(b))
        }
    }

    /// A length measured scaled down, at full size: the largest double at
    /// most (a length past it is returned as the largest double).
    private static func scaledUp(_ length: Double) -> Double { min(length * 0x1p64, .greatestFiniteMagnitude) }

    private func adaptiveLength(_ a: Double, _ b: Double, _ whole: Double, depth: Int) -> Double {
        let m = (a + b) / 2
        let left = gauss(a, m), right = gauss(m, b)
        if depth >= 12 || abs(left + right - whole) <= 1e-9 * max(1, abs(whole)) { return left + right }
        return adaptiveLength(a, m, left, depth: depth + 1) + adaptiveLength(m, b, right, depth: depth + 1)
    }

    private static let nodes: [(Double, Double)] = [
        (-0.1834346424956498, 0.3626837833783620), (0.1834346424956498, 0.3626837833783620),
        (-0.5255324099163290, 0.3137066458778873), (0.5255324099163290, 0.3137066458778873),
        (-0.7966664774136267, 0.2223810344533745), (0.7966664774136267, 0.2223810344533745),
        (-0.9602898564975363, 0.1012285362903763), (0.9602898564975363, 0.1012285362903763),
    ]

    private func gauss(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for (x, w) in PathSegment.nodes { sum += w * speed(mid + half * x) }
        return sum * half
    }

    /// The parameter t at which the arc length from 0 reaches `distance`
    /// (0...length): Newton steps guarded by bisection, to 1e-9 of the length.
    public func parameter(atDistance distance: Double, length total: Double) -> Double {
        if distance <= 0 { return 0 }
        if distance >= total { return 1 }
        if case .line = self { return distance / total }
        var lo = 0.0, hi = 1.0, t = distance / total
        for _ in 0..<60 {
            let error = length(from: 0, to: t) - distance
            if abs(error) <= 1e-9 * max(1, total) { break }
            if error > 0 { hi = t } else { lo = t }
            let s = speed(t)
            var next = s > 1e-12 ? t - error / s : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            t = next
        }
        return t
    }
}

/// A path measured once: its segments with their lengths and a table of
/// arc length against curve parameter, so that a point at a distance along
/// it (paced keyframes, path animations, every frame) costs a search and a
/// Newton step or two on a short piece of curve.
public struct PathMeasure: Sendable {
    public let segments: [PathSegment]
    public let lengths: [Double]
    /// Distance from the path's start to the start of each segment.
    public let starts: [Double]
    public let length: Double
    /// Per curved segment: arc length from its start at t = k / tableSteps.
    private let tables: [[Double]]
    private static let tableSteps = 32

    public init(_ path: PathData) {
        segments = path.segments
        var tables: [[Double]] = [], lengths: [Double] = []
        for segment in segments {
            if case .line = segment {
                tables.append([])
                lengths.append(segment.length())
                continue
            }
            var table = [0.0], total = 0.0
            for k in 1...PathMeasure.tableSteps {
                total = sumOfLengths(total, segment.length(from: Double(k - 1) / Double(PathMeasure.tableSteps),
                                                           to: Double(k) / Double(PathMeasure.tableSteps)))
                table.append(total)
            }
            tables.append(table)
            lengths.append(total)
        }
        self.tables = tables
        self.lengths = lengths
        var total = 0.0, starts: [Double] = []
        for l in lengths { starts.append(total); total = sumOfLengths(total, l) }
        self.starts = starts
        length = total
    }

    /// The point and direction of travel at `distance` along the path,
    /// clamped to its ends; nil for a path with nothing drawn.
    public func position(atDistance distance: Double) -> (point: Point, angle: Double)? {
        guard !segments.isEmpty else { return nil }
        let d = min(max(distance, 0), length)
        // The last segment whose start is at or before d, skipping empty ones.
        var i = segments.count - 1
        var lo = 0, hi = segments.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= d { i = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        while i > 0 && lengths[i] == 0 && starts[i] >= d { i -= 1 }
        let t = parameter(segment: i, distance: d - starts[i])
        return (segments[i].point(at: t), segments[i].angle(at: t))
    }

    /// The curve parameter of segment i at `distance` from its start, to
    /// 1e-9 of the segment's length: the table brackets it, Newton refines.
    private func parameter(segment i: Int, distance: Double) -> Double {
        let total = lengths[i], segment = segments[i]
        if distance <= 0 || total <= 0 { return 0 }
        if distance >= total { return 1 }
        let table = tables[i]
        if table.isEmpty { return distance / total }
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] <= distance { lo = mid } else { hi = mid }
        }
        let step = 1 / Double(PathMeasure.tableSteps)
        let t0 = Double(lo) * step, t1 = Double(hi) * step
        let span = table[hi] - table[lo]
        var t = span > 0 ? t0 + (distance - table[lo]) / span * step : t0
        for _ in 0..<8 {
            // One 8-point Gauss-Legendre rule on a piece of at most 1/32 of
            // the curve: exact to rounding for the polynomial part of the speed.
            let error = table[lo] + segment.shortLength(from: t0, to: t) - distance
            if abs(error) <= 1e-9 * max(1, total) { break }
            let d = segment.derivative(at: t)
            let speed = magnitude(d.x, d.y)
            guard speed > 1e-12 else { break }
            t = min(max(t - error / speed, t0), t1)
        }
        return t
    }
}

extension PathData {
    /// The drawn segments in order: moves start new pieces, a close draws
    /// the line back to where its subpath started (even when zero long).
    public var segments: [PathSegment] {
        var result: [PathSegment] = []
        var current = Point.zero, start = Point.zero
        for e in elements {
            switch e {
            case .move(let p): current = p; start = p
            case .line(let p): result.append(.line(current, p)); current = p
            case .quad(let c, let p): result.append(.quad(current, c, p)); current = p
            case .curve(let c1, let c2, let p): result.append(.cubic(current, c1, c2, p)); current = p
            case .close: result.append(.line(current, start)); current = start
            }
        }
        return result
    }

    /// Total arc length (moves add nothing); the largest double at most.
    public var length: Double { segments.reduce(0) { sumOfLengths($0, $1.length()) } }
}

/// a + b for lengths, at most the largest double: a path whose length is
/// past it (two lines 1e308 long) measures the largest double, not infinity.
@inline(__always)
func sumOfLengths(_ a: Double, _ b: Double) -> Double { min(a + b, .greatestFiniteMagnitude) }
