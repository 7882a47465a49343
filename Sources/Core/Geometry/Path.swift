import Glibc

/// A vector path (CGPath): subpaths of lines and Bézier curves.
public struct PathData: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case curve(Point, Point, Point)
        case close
    }

    public private(set) var elements: [Element] = []
    /// Where the current subpath started (a close returns there).
    private var subpathStart: Point?
    private(set) var currentPoint: Point?

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) {
        elements.append(.move(p)); subpathStart = p; currentPoint = p
    }

    /// Lines and curves need a current point (CGPath logs and ignores them otherwise).
    public mutating func line(to p: Point) -> Bool {
        guard currentPoint != nil else { return false }
        elements.append(.line(p)); currentPoint = p
        return true
    }

    public mutating func quad(control c: Point, to p: Point) -> Bool {
        guard currentPoint != nil else { return false }
        elements.append(.quad(c, p)); currentPoint = p
        return true
    }

    public mutating func curve(control1 c1: Point, control2 c2: Point, to p: Point) -> Bool {
        guard currentPoint != nil else { return false }
        elements.append(.curve(c1, c2, p)); currentPoint = p
        return true
    }

    public mutating func close() {
        guard currentPoint != nil else { return }
        elements.append(.close); currentPoint = subpathStart
    }

    public mutating func addRect(_ r: Rect) {
        move(to: Point(x: r.minX, y: r.minY))
        _ = line(to: Point(x: r.maxX, y: r.minY))
        _ = line(to: Point(x: r.maxX, y: r.maxY))
        _ = line(to: Point(x: r.minX, y: r.maxY))
        close()
    }

    /// Cubic approximation of a quarter ellipse: control distance 0.5523 of the radius.
    private static let kappa = 0.5522847498307936

    public mutating func addRoundedRect(_ r: Rect, rx: Double, ry: Double) {
        let rx = min(max(rx, 0), (r.maxX - r.minX) / 2), ry = min(max(ry, 0), (r.maxY - r.minY) / 2)
        guard rx > 0, ry > 0 else { addRect(r); return }
        let k = PathData.kappa
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        move(to: Point(x: x0 + rx, y: y0))
        _ = line(to: Point(x: x1 - rx, y: y0))
        _ = curve(control1: Point(x: x1 - rx + k * rx, y: y0), control2: Point(x: x1, y: y0 + ry - k * ry), to: Point(x: x1, y: y0 + ry))
        _ = line(to: Point(x: x1, y: y1 - ry))
        _ = curve(control1: Point(x: x1, y: y1 - ry + k * ry), control2: Point(x: x1 - rx + k * rx, y: y1), to: Point(x: x1 - rx, y: y1))
        _ = line(to: Point(x: x0 + rx, y: y1))
        _ = curve(control1: Point(x: x0 + rx - k * rx, y: y1), control2: Point(x: x0, y: y1 - ry + k * ry), to: Point(x: x0, y: y1 - ry))
        _ = line(to: Point(x: x0, y: y0 + ry))
        _ = curve(control1: Point(x: x0, y: y0 + ry - k * ry), control2: Point(x: x0 + rx - k * rx, y: y0), to: Point(x: x0 + rx, y: y0))
        close()
    }

    public mutating func addEllipse(in r: Rect) {
        let cx = (r.minX + r.maxX) / 2, cy = (r.minY + r.maxY) / 2
        let rx = (r.maxX - r.minX) / 2, ry = (r.maxY - r.minY) / 2
        let k = PathData.kappa
        move(to: Point(x: cx + rx, y: cy))
        _ = curve(control1: Point(x: cx + rx, y: cy + k * ry), control2: Point(x: cx + k * rx, y: cy + ry), to: Point(x: cx, y: cy + ry))
        _ = curve(control1: Point(x: cx - k * rx, y: cy + ry), control2: Point(x: cx - rx, y: cy + k * ry), to: Point(x: cx - rx, y: cy))
        _ = curve(control1: Point(x: cx - rx, y: cy - k * ry), control2: Point(x: cx - k * rx, y: cy - ry), to: Point(x: cx, y: cy - ry))
        _ = curve(control1: Point(x: cx + k * rx, y: cy - ry), control2: Point(x: cx + rx, y: cy - k * ry), to: Point(x: cx + rx, y: cy))
        close()
    }

    /// An arc of a circle (CGPathAddArc on a y-down surface): angles grow
    /// clockwise on screen; `clockwise` sweeps towards growing angles. A line
    /// joins the current point to the arc's start, if there is one.
    public mutating func addArc(center c: Point, radius: Double, start: Double, end: Double, clockwise: Bool) {
        var sweep = end - start
        let full = 2 * Double.pi
        // Angles far apart enough that their difference overflows (1e308
        // to -1e308) sweep many turns: one full turn, as a finite sweep of
        // more than one is (it was NaN after the remainder, a trap).
        if !sweep.isFinite { sweep = clockwise ? full : -full }
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }
            if sweep > full { sweep = full }
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }
            if sweep < -full { sweep = -full }
        }
        // A start far from 0 (1e308) has no room for the pieces' steps:
        // a0 + step was a0, every piece one point. The same angle within a
        // turn of 0 (the remainder is exact).
        let start = abs(start) > full ? start.truncatingRemainder(dividingBy: full) : start
        let startPoint = Point(x: c.x + radius * cos(start), y: c.y + radius * sin(start))
        if currentPoint == nil { move(to: startPoint) } else { _ = line(to: startPoint) }
        // Split into pieces of at most a quarter turn, each one cubic.
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let h = 4.0 / 3.0 * tan(step / 4)
        var a0 = start
        for _ in 0..<pieces {
            let a1 = a0 + step
            let p0 = Point(x: c.x + radius * cos(a0), y: c.y + radius * sin(a0))
            let p3 = Point(x: c.x + radius * cos(a1), y: c.y + radius * sin(a1))
            let c1 = Point(x: p0.x - h * radius * sin(a0), y: p0.y + h * radius * cos(a0))
            let c2 = Point(x: p3.x + h * radius * sin(a1), y: p3.y - h * radius * cos(a1))
            _ = curve(control1: c1, control2: c2, to: p3)
            a0 = a1
        }
    }

    /// The tight bounding box of the path's curves (CGPathGetPathBoundingBox).
    public var bounds: Rect {
        var xs: [Double] = [], ys: [Double] = []
        var current = Point.zero
        for e in elements {
            switch e {
            case .move(let p), .line(let p):
                xs.append(p.x); ys.append(p.y); current = p
            case .quad(let c, let p):
                xs.append(p.x); ys.append(p.y)
                for (a, b, d, into) in [(current.x, c.x, p.x, 0), (current.y, c.y, p.y, 1)] {
                    let den = a - 2 * b + d
                    if den != 0 {
                        let t = (a - b) / den
                        if t > 0 && t < 1 {
                            let v = (1 - t) * (1 - t) * a + 2 * (1 - t) * t * b + t * t * d
                            if into == 0 { xs.append(v) } else { ys.append(v) }
                        }
                    }
                }
                current = p
            case .curve(let c1, let c2, let p):
                xs.append(p.x); ys.append(p.y)
                xs += cubicExtrema(current.x, c1.x, c2.x, p.x)
                ys += cubicExtrema(current.y, c1.y, c2.y, p.y)
                current = p
            case .close:
                break
            }
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            return .zero
        }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Values of a 1-D cubic Bézier at its interior extrema.
private func cubicExtrema(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
    // Derivative: 3(a t^2 + b t + c)
    let a = -p0 + 3 * p1 - 3 * p2 + p3
    let b = 2 * (p0 - 2 * p1 + p2)
    let c = p1 - p0
    var ts: [Double] = []
    if abs(a) < 1e-12 {
        if b != 0 { ts.append(-c / b) }
    } else {
        let disc = b * b - 4 * a * c
        if disc >= 0 {
            let s = disc.squareRoot()
            ts.append((-b + s) / (2 * a)); ts.append((-b - s) / (2 * a))
        }
    }
    return ts.filter { $0 > 0 && $0 < 1 }.map { t in
        let u = 1 - t
        return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
    }
}
