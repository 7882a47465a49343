import Glibc

/// SVG path data (the `d` attribute, SVG 1.1 §8.3): every command, absolute
/// and relative, with implicit repeats, smooth curves reflecting the previous
/// control point and elliptical arcs converted to cubics. Bad data is an
/// error naming the offset and what was expected; nothing is returned then.
public struct SVGPathParser {
    private let bytes: [UInt8]
    private var i = 0
    private var path = PathData()
    private var current = Point.zero
    private var subpathStart = Point.zero
    /// The last cubic / quadratic control point, for S/s and T/t.
    private var lastCubicControl: Point?
    private var lastQuadControl: Point?

    public static func parse(_ text: String) throws(LayerKitError) -> PathData {
        var parser = SVGPathParser(bytes: Array(text.utf8))
        try parser.run()
        return parser.path
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ what: String) -> LayerKitError {
        LayerKitError(.invalidArgument, "path_data: \(what) at offset \(i)")
    }

    private mutating func skipSeparators() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x2C].contains(bytes[i]) { i += 1 }
    }

    private mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[i]) { i += 1 }
    }

    private func isNumberStart(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2B || c == 0x2D
    }

    /// True when another number follows (an implicit repeat of the command).
    private mutating func numberFollows() -> Bool {
        skipSeparators()
        return i < bytes.count && isNumberStart(bytes[i])
    }

    private mutating func number(_ what: String) throws(LayerKitError) -> Double {
        skipSeparators()
        let start = i
        if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D { i += 1 }
        var digits = 0
        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
        if i < bytes.count, bytes[i] == 0x2E {
            i += 1
            while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1; digits += 1 }
        }
        guard digits > 0 else {
            i = start
            throw error(i < bytes.count ? "expected a number for \(what), found '\(Character(UnicodeScalar(bytes[i])))'"
                                        : "expected a number for \(what), found the end of the data")
        }
        if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 {
            var j = i + 1
            if j < bytes.count, bytes[j] == 0x2B || bytes[j] == 0x2D { j += 1 }
            var expDigits = 0
            while j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1; expDigits += 1 }
            if expDigits > 0 { i = j }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            i = start
            throw error("\"\(text)\" is not a finite number for \(what)")
        }
        return v
    }

    /// Arc flags are a single 0 or 1 and may be written without separators.
    private mutating func flag(_ what: String) throws(LayerKitError) -> Bool {
        skipSeparators()
        guard i < bytes.count, bytes[i] == 0x30 || bytes[i] == 0x31 else { throw error("expected 0 or 1 for \(what)") }
        i += 1
        return bytes[i - 1] == 0x31
    }

    private mutating func point(_ relative: Bool, _ what: String) throws(LayerKitError) -> Point {
        let x = try number("\(what) x"), y = try number("\(what) y")
        return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
    }

    private mutating func run() throws(LayerKitError) {
        skipSpace()
        var first = true
        while i < bytes.count {
            let c = bytes[i]
            let command = Character(UnicodeScalar(c))
            guard "MmLlHhVvCcSsQqTtAaZz".contains(command) else {
                throw error("'\(command)' is not a path command")
            }
            if first && command != "M" && command != "m" {
                throw error("path data must start with a moveto (M or m), found '\(command)'")
            }
            first = false
            i += 1
            try perform(command)
            skipSpace()
        }
    }

    private mutating func perform(_ command: Character) throws(LayerKitError) {
        let relative = command.isLowercase
        let upper = Character(command.uppercased())
        if upper == "Z" {
            path.close()
            current = subpathStart
            lastCubicControl = nil; lastQuadControl = nil
            return
        }
        var repeatCount = 0
        repeat {
            var cubicControl: Point?, quadControl: Point?
            switch upper {
            case "M":
                let p = try point(relative, "moveto")
                // Pairs after the first are implicit linetos.
                if repeatCount == 0 {
                    path.move(to: p); subpathStart = p
                } else {
                    _ = path.line(to: p)
                }
                current = p
            case "L":
                let p = try point(relative, "lineto")
                _ = path.line(to: p); current = p
            case "H":
                let x = try number("horizontal lineto x")
                let p = Point(x: relative ? current.x + x : x, y: current.y)
                _ = path.line(to: p); current = p
            case "V":
                let y = try number("vertical lineto y")
                let p = Point(x: current.x, y: relative ? current.y + y : y)
                _ = path.line(to: p); current = p
            case "C":
                let c1 = try point(relative, "curveto control 1"), c2 = try point(relative, "curveto control 2")
                let p = try point(relative, "curveto end")
                _ = path.curve(control1: c1, control2: c2, to: p); current = p; cubicControl = c2
            case "S":
                let c1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let c2 = try point(relative, "smooth curveto control 2"), p = try point(relative, "smooth curveto end")
                _ = path.curve(control1: c1, control2: c2, to: p); current = p; cubicControl = c2
            case "Q":
                let c = try point(relative, "quadratic control"), p = try point(relative, "quadratic end")
                _ = path.quad(control: c, to: p); current = p; quadControl = c
            case "T":
                let c = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let p = try point(relative, "smooth quadratic end")
                _ = path.quad(control: c, to: p); current = p; quadControl = c
            case "A":
                let rx = try number("arc rx"), ry = try number("arc ry"), rotation = try number("arc x-axis-rotation")
                let large = try flag("arc large-arc-flag"), sweep = try flag("arc sweep-flag")
                let p = try point(relative, "arc end")
                guard rx >= 0, ry >= 0 else { throw error("arc radii must not be negative") }
                addArc(to: p, rx: rx, ry: ry, rotation: rotation * Double.pi / 180, large: large, sweep: sweep)
                current = p
            default:
                throw error("'\(command)' is not a path command")
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
            repeatCount += 1
        } while numberFollows()
    }

    /// SVG 1.1 F.6.5: endpoint to centre parameterisation, then cubic pieces
    /// of at most a quarter turn.
    private mutating func addArc(to end: Point, rx rx0: Double, ry ry0: Double, rotation phi: Double,
                                 large: Bool, sweep: Bool) {
        let start = current
        if start == end { return }
        var rx = abs(rx0), ry = abs(ry0)
        if rx == 0 || ry == 0 { _ = path.line(to: end); return }
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // Solved in units of the largest of the half chord and the radii (a
        // power of two, so exact): squared, coordinates near 1e300 overflowed
        // and radii near 1e-300 underflowed, and the arc's piece count came
        // out NaN (a trap). What still does not fit a double is a line.
        let halfX = start.x / 2 - end.x / 2, halfY = start.y / 2 - end.y / 2
        let largest = max(abs(halfX), abs(halfY), rx, ry)
        guard largest.isFinite, largest > 0 else { _ = path.line(to: end); return }
        let unit = Double(sign: .plus, exponent: largest.exponent, significand: 1)
        let dx = halfX / unit, dy = halfY / unit
        rx /= unit
        ry /= unit
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        // radii too small for the chord grow until the ellipse just spans it
        let lambdaRoot = hypot(x1 / rx, y1 / ry)
        if lambdaRoot > 1 { rx *= lambdaRoot; ry *= lambdaRoot }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = den == 0 ? 0 : (max(0, num / den)).squareRoot()
        if large == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = unit * (cosPhi * cx1 - sinPhi * cy1) + (start.x / 2 + end.x / 2)
        let cy = unit * (sinPhi * cx1 + cosPhi * cy1) + (start.y / 2 + end.y / 2)
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        rx *= unit
        ry *= unit
        guard theta1.isFinite, delta.isFinite, cx.isFinite, cy.isFinite, rx.isFinite, ry.isFinite else {
            _ = path.line(to: end)
            return
        }
        let pieces = max(1, Int((abs(delta) / (Double.pi / 2)).rounded(.up)))
        let step = delta / Double(pieces)
        let h = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ t: Double) -> Point {
            Point(x: cx + rx * cos(t) * cosPhi - ry * sin(t) * sinPhi, y: cy + rx * cos(t) * sinPhi + ry * sin(t) * cosPhi)
        }
        func derivative(_ t: Double) -> Point {
            Point(x: -rx * sin(t) * cosPhi - ry * cos(t) * sinPhi, y: -rx * sin(t) * sinPhi + ry * cos(t) * cosPhi)
        }
        var t0 = theta1
        for n in 0..<pieces {
            let t1 = t0 + step
            let p0 = onEllipse(t0), d0 = derivative(t0), d1 = derivative(t1)
            let p3 = n == pieces - 1 ? end : onEllipse(t1)
            _ = path.curve(control1: Point(x: p0.x + h * d0.x, y: p0.y + h * d0.y),
                           control2: Point(x: p3.x - h * d1.x, y: p3.y - h * d1.y), to: p3)
            t0 = t1
        }
    }
}
