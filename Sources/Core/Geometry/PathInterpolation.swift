/// Path morphing (S7.1): two paths with the same sequence of elements
/// interpolate point by point; others do not (the caller switches).
extension PathData {
    public func interpolated(to other: PathData, _ p: Double) -> PathData? {
        guard elements.count == other.elements.count else { return nil }
        if p == 0 { return self }
        if p == 1 { return other }
        func mix(_ a: Point, _ b: Point) -> Point { Interpolation.interpolate(a, b, p) }
        var out = PathData()
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case let (.move(x), .move(y)): out.move(to: mix(x, y))
            case let (.line(x), .line(y)): _ = out.line(to: mix(x, y))
            case let (.quad(c, x), .quad(d, y)): _ = out.quad(control: mix(c, d), to: mix(x, y))
            case let (.curve(c1, c2, x), .curve(d1, d2, y)):
                _ = out.curve(control1: mix(c1, d1), control2: mix(c2, d2), to: mix(x, y))
            case (.close, .close): out.close()
            default: return nil
            }
        }
        return out
    }

    /// The elements as the rasterizer's codes and points (layerkit_content.h).
    func flattenedForRasterizer() -> (ops: [UInt8], points: [Double]) {
        var ops: [UInt8] = [], points: [Double] = []
        ops.reserveCapacity(elements.count)
        points.reserveCapacity(elements.count * 6)
        for e in elements {
            switch e {
            case .move(let p): ops.append(0); points += [p.x, p.y]
            case .line(let p): ops.append(1); points += [p.x, p.y]
            case .quad(let c, let p): ops.append(2); points += [c.x, c.y, p.x, p.y]
            case .curve(let c1, let c2, let p): ops.append(3); points += [c1.x, c1.y, c2.x, c2.y, p.x, p.y]
            case .close: ops.append(4)
            }
        }
        return (ops, points)
    }
}
