import Glibc

extension PathData {
    /// How far, in half line widths, a stroke with miter joins can reach
    /// beyond the path: the longest miter any of its joins makes (1 where
    /// none does), never more than `limit` (S7.1's miterLimit; 5% more, see
    /// join below). A join that
    /// turns the direction by d has a miter 1 / cos(d / 2) half widths long,
    /// cut to a bevel (1) when that exceeds the limit, as cairo and Core
    /// Graphics do. Inside a curve cairo joins the pieces it flattens the
    /// curve into with round fans (its strokers' spline_to), which reach no
    /// further than the line; but a dashed or trimmed (strokeStart, strokeEnd)
    /// stroke, drawn from the flattened path, joins them like lines, so
    /// there a curve counts as joins turning by up to the turning of its
    /// control polygon (which bounds the curve's). A smooth path thus keeps
    /// its content image tight instead of growing by miterLimit all round.
    func miterReach(limit: Double, curvesAsLines: Bool) -> Double {
        let limit = max(limit, 1)
        var reach = 1.0
        /// The reach of a join turning by `turn`. Near the limit the
        /// rasterizer's fixed-point slopes may decide either way: a miter up
        /// to 5% beyond the limit still counts.
        func join(_ turn: Double) {
            guard turn > 1e-12 else { return }
            let miter = 1 / cos(turn / 2)
            if miter.isFinite && miter <= limit * 1.05 { reach = max(reach, miter) }
        }
        /// The largest reach of joins turning by up to `turn`.
        func joins(upTo turn: Double) {
            guard turn > 1e-12 else { return }
            if turn >= Double.pi { reach = limit * 1.05; return }
            reach = max(reach, min(1 / cos(turn / 2), limit * 1.05))
        }
        func direction(_ a: Point, _ b: Point) -> Point? {
            let d = Point(x: b.x - a.x, y: b.y - a.y)
            return d.x == 0 && d.y == 0 ? nil : d
        }
        func turn(_ a: Point, _ b: Point) -> Double {
            abs(atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y))
        }
        var current = Point(x: 0, y: 0), start = current
        var first: Point?, last: Point?
        /// A segment through `points` (its control polygon) from the current point.
        func segment(_ points: [Point]) {
            var dirs: [Point] = []
            var p = current
            for q in points {
                if let d = direction(p, q) { dirs.append(d) }
                p = q
            }
            current = p
            guard let d0 = dirs.first, let d1 = dirs.last else { return }
            if let last { join(turn(last, d0)) }
            if curvesAsLines {
                var inside = 0.0
                for i in dirs.indices.dropFirst() { inside += turn(dirs[i - 1], dirs[i]) }
                joins(upTo: inside)
            }
            if first == nil { first = d0 }
            last = d1
        }
        for e in elements {
            switch e {
            case .move(let p):
                current = p; start = p; first = nil; last = nil
            case .line(let p): segment([p])
            case .quad(let c, let p): segment([c, p])
            case .curve(let c1, let c2, let p): segment([c1, c2, p])
            case .close:
                segment([start])
                if let last, let first { join(turn(last, first)) }
                current = start; first = nil; last = nil
            }
            if reach >= limit * 1.05 { return reach }
        }
        return reach
    }
}
