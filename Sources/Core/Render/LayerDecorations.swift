import CLayerKit

/// What a layer's shadow looks like in output pixels (S6.1), as a group's
/// shadow fields carry it.
struct ShadowSpec {
    /// Premultiplied, shadowOpacity and the layer's opacity applied.
    var color: lk_dl_color
    var offsetX: Double, offsetY: Double
    var sigma: Double

    /// How far the shadow can reach beyond what casts it: the offset plus
    /// three standard deviations (and a pixel for the kernel's rounding).
    var reach: Double { 3 * sigma + 1 }

    /// The layer's shadow, or nil when it draws nothing (shadowOpacity 0 or
    /// a clear shadowColor). `superlayerMap` maps the superlayer's bounds
    /// space to output pixels.
    ///
    /// - shadowOffset is in the superlayer's space, as in Core Animation: a
    ///   rotated layer's shadow still falls the same way on screen. It is
    ///   mapped to output pixels at the layer's position (exact for affine
    ///   maps, the local linearisation under perspective).
    /// - shadowRadius is the Gaussian's standard deviation, sigma = radius
    ///   (scaled by the same map). A blur "radius" B of CSS and of design
    ///   tools is a Gaussian of sigma B/2 (CSS Backgrounds 3, box-shadow),
    ///   and those tools export B as shadowRadius = B/2: so sigma =
    ///   shadowRadius. docs/rendering.md says more.
    static func of(_ s: UnsafeMutablePointer<LayerState>, superlayerMap: Transform3D, opacity: Double) -> ShadowSpec? {
        let c = s.pointee.shadowColor
        let a = c.a * s.pointee.shadowOpacity * opacity
        guard a > 0 else { return nil }
        let p = s.pointee.position, o = s.pointee.shadowOffset
        var dx = o.width, dy = o.height, scale = 1.0
        if let origin = superlayerMap.project(p) {
            if let q = superlayerMap.project(Point(x: p.x + o.width, y: p.y + o.height)) {
                dx = q.x - origin.x
                dy = q.y - origin.y
            }
            if let ex = superlayerMap.project(Point(x: p.x + 1, y: p.y)),
               let ey = superlayerMap.project(Point(x: p.x, y: p.y + 1)) {
                let det = (ex.x - origin.x) * (ey.y - origin.y) - (ex.y - origin.y) * (ey.x - origin.x)
                scale = abs(det).squareRoot()
            }
        }
        let sigma = s.pointee.shadowRadius * scale
        guard dx.isFinite, dy.isFinite, sigma.isFinite else { return nil }
        let color = lk_dl_color(r: Float(c.r * a), g: Float(c.g * a), b: Float(c.b * a), a: Float(a))
        return ShadowSpec(color: color, offsetX: dx, offsetY: dy, sigma: sigma)
    }
}

/// A shadowPath the display list can draw as one FILL: a rect, a rounded
/// rect or an ellipse, as lk_path_add_rect / _rounded_rect / _ellipse (or
/// four axis-aligned lines) make them. Any other path has no FILL form: its
/// coverage is rasterized instead (ShadowCoverage, docs/rendering.md).
struct ShadowShape {
    /// FILL this rect rounded by radius under `local` then the layer's map.
    var rect: Rect
    var radius: Double
    var local: Transform3D

    init?(_ path: PathData) {
        let e = path.elements
        let b = path.bounds
        guard b.size.width > 0, b.size.height > 0, b.isFiniteRect else { return nil }
        func near(_ x: Double, _ y: Double) -> Bool {
            abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
        }
        func same(_ other: PathData) -> Bool {
            guard other.elements.count == e.count else { return false }
            for (x, y) in zip(other.elements, e) {
                switch (x, y) {
                case let (.move(p), .move(q)), let (.line(p), .line(q)):
                    guard near(p.x, q.x), near(p.y, q.y) else { return false }
                case let (.curve(p1, p2, p3), .curve(q1, q2, q3)):
                    for (p, q) in [(p1, q1), (p2, q2), (p3, q3)] where !(near(p.x, q.x) && near(p.y, q.y)) { return false }
                case (.close, .close):
                    break
                default:
                    return false
                }
            }
            return true
        }
        if e.count == 5 || e.count == 4, case .move = e[0],
           e.dropFirst().allSatisfy({ if case .line = $0 { return true }; if case .close = $0 { return true }; return false }),
           ShadowShape.isAxisAlignedBox(e, b) {
            self.init(rect: b, radius: 0)
            return
        }
        var ellipse = PathData()
        ellipse.addEllipse(in: b)
        if same(ellipse) {
            self.init(rect: b, rx: b.size.width / 2, ry: b.size.height / 2)
            return
        }
        if e.count == 10, case .move(let start) = e[0], case .curve(_, _, let end) = e[2] {
            let rx = start.x - b.minX, ry = end.y - b.minY
            var rounded = PathData()
            rounded.addRoundedRect(b, rx: rx, ry: ry)
            if rx > 0, ry > 0, same(rounded) {
                self.init(rect: b, rx: rx, ry: ry)
                return
            }
        }
        return nil
    }

    private init(rect: Rect, radius: Double) {
        self.rect = rect
        self.radius = radius
        local = .identity
    }

    /// A rounded rect with elliptical corners: a rect with round corners of
    /// radius rx, squeezed vertically by ry / rx.
    private init(rect b: Rect, rx: Double, ry: Double) {
        let k = ry / rx
        rect = Rect(x: 0, y: 0, width: b.size.width, height: b.size.height / k)
        radius = rx
        local = Transform3D.scale(1, k, 1).concatenating(.translation(b.minX, b.minY, 0))
    }

    /// Four (or five, closing) points on the corners of b, each corner once.
    private static func isAxisAlignedBox(_ e: [PathData.Element], _ b: Rect) -> Bool {
        var corners = Set<Int>()
        for element in e {
            let p: Point
            switch element {
            case .move(let q), .line(let q): p = q
            case .close: continue
            default: return false
            }
            let ix = p.x == b.minX ? 0 : p.x == b.maxX ? 1 : -1
            let iy = p.y == b.minY ? 0 : p.y == b.maxY ? 1 : -1
            guard ix >= 0, iy >= 0 else { return false }
            corners.insert(ix * 2 + iy)
        }
        return corners.count == 4
    }
}

/// A box in output pixels that display list ops are known to stay inside.
struct ScreenBox {
    var x0: Double, y0: Double, x1: Double, y1: Double

    static let empty = ScreenBox(x0: .infinity, y0: .infinity, x1: -.infinity, y1: -.infinity)
    /// Somewhere behind the viewer, or too large to say: the whole output.
    static let unbounded = ScreenBox(x0: -.infinity, y0: -.infinity, x1: .infinity, y1: .infinity)

    var isEmpty: Bool { !(x1 > x0 && y1 > y0) }

    /// The screen box of `rect` under `t`, unbounded when part of it is behind the eye.
    init(_ t: Transform3D, _ rect: Rect) {
        self = .empty
        // The four corners without an array of them (one allocation per
        // box: a box per op, twice, every frame, in the damage).
        let xs = (rect.minX, rect.maxX), ys = (rect.minY, rect.maxY)
        for corner in 0..<4 {
            let x = corner == 0 || corner == 3 ? xs.0 : xs.1, y = corner < 2 ? ys.0 : ys.1
            guard let p = t.project(Point(x: x, y: y)), p.x.isFinite, p.y.isFinite else { self = .unbounded; return }
            x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y)
        }
    }

    init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }

    func union(_ o: ScreenBox) -> ScreenBox {
        if o.isEmpty { return self }
        if isEmpty { return o }
        return ScreenBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    /// Holds all of `o` (false when either is NaN).
    func contains(_ o: ScreenBox) -> Bool { x0 <= o.x0 && y0 <= o.y0 && x1 >= o.x1 && y1 >= o.y1 }

    func intersection(_ o: ScreenBox) -> ScreenBox {
        let r = ScreenBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }

    /// Where a shadow of what lies in this box can fall (the box included).
    func withShadow(dx: Double, dy: Double, reach: Double) -> ScreenBox {
        if isEmpty { return self }
        return union(ScreenBox(x0: x0 + dx - reach, y0: y0 + dy - reach, x1: x1 + dx + reach, y1: y1 + dy + reach))
    }

    /// As a display list rect: whole pixels outward, unbounded as a rect far
    /// larger than any output.
    var rect: lk_dl_rect {
        if isEmpty { return lk_dl_rect(x: 0, y: 0, width: 0, height: 0) }
        let limit = 1e7
        let a = max(x0, -limit).rounded(.down), b = max(y0, -limit).rounded(.down)
        let c = min(x1, limit).rounded(.up), d = min(y1, limit).rounded(.up)
        return lk_dl_rect(x: a, y: b, width: c - a, height: d - b)
    }
}

/// contentsCenter (S6.1): the image splits into a 3x3 grid; corners keep
/// their natural size (image pixels / contentsScale), edges stretch along
/// one axis, the centre along both. contentsCenter is in the unit space of
/// the part of the image contentsRect selects. When the destination is
/// smaller than the two fixed parts together, they shrink in proportion.
/// A centre of zero width (or height) is taken as one source pixel wide
/// centred at that place, as Core Animation documents: that column (row)
/// of the image stretches.
enum NineSlice {
    struct Slice { var destination: Rect; var source: Rect }

    /// The slices with some area, or nil when contentsCenter is the whole
    /// image (then the image is one op).
    static func slices(destination d: Rect, source s: Rect, center c: Rect, scale: Double) -> [Slice]? {
        guard c != .unit, s.size.width > 0, s.size.height > 0, c.isFiniteRect else { return nil }
        let cx0 = min(max(c.minX, 0), 1), cx1 = min(max(c.maxX, cx0), 1)
        let cy0 = min(max(c.minY, 0), 1), cy1 = min(max(c.maxY, cy0), 1)
        func axis(_ origin: Double, _ length: Double, _ dOrigin: Double, _ dLength: Double,
                  _ c0: Double, _ c1: Double) -> (src: [Double], dst: [Double]) {
            var before = c0 * length, after = (1 - c1) * length
            if c1 <= c0 {
                // A centre of zero width is one source pixel wide, centred
                // there (Core Animation's contentsCenter): that line stretches.
                let lo = max(0, min(before - 0.5, length - 1))
                before = lo
                after = max(0, length - lo - 1)
            }
            var b = before / scale, a = after / scale
            if b + a > dLength, b + a > 0 {
                let k = dLength / (b + a)
                b *= k; a *= k
            }
            // Slice edges on whole image pixels stay there (1/3 of 30 is not
            // exactly 10 in binary), so no slice samples its neighbour's pixels.
            func snap(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
            return ([origin, snap(origin + before), snap(origin + length - after), origin + length],
                    [dOrigin, dOrigin + b, dOrigin + dLength - a, dOrigin + dLength])
        }
        let x = axis(s.origin.x, s.size.width, d.minX, d.size.width, cx0, cx1)
        let y = axis(s.origin.y, s.size.height, d.minY, d.size.height, cy0, cy1)
        var out: [Slice] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let dw = x.dst[i + 1] - x.dst[i], dh = y.dst[j + 1] - y.dst[j]
                let sw = x.src[i + 1] - x.src[i], sh = y.src[j + 1] - y.src[j]
                guard dw > 0, dh > 0, sw > 0, sh > 0 else { continue }
                out.append(Slice(destination: Rect(x: x.dst[i], y: y.dst[j], width: dw, height: dh),
                                 source: Rect(x: x.src[i], y: y.src[j], width: sw, height: sh)))
            }
        }
        return out
    }
}
