// Plain geometric values of the layer model (S1.0: origin top left, y down).

public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    var isFinite: Bool { x.isFinite && y.isFinite }
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    var isFinite: Bool { width.isFinite && height.isFinite }
}

public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public static let unit = Rect(x: 0, y: 0, width: 1, height: 1)

    public var minX: Double { min(origin.x, origin.x + size.width) }
    public var minY: Double { min(origin.y, origin.y + size.height) }
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    var isFinite: Bool { origin.isFinite && size.isFinite }
    public var isFiniteRect: Bool { isFinite }

    /// Half-open containment, as CGRectContainsPoint: the max edges are outside.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The smallest rect holding every point.
    static func bounding(_ points: [Point]) -> Rect {
        guard let first = points.first else { return .zero }
        var lo = first, hi = first
        for p in points.dropFirst() {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y)
            hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}

/// sRGB with straight alpha, components 0...1 (S6.2: premultiplied only inside rendering).
public struct Color: Equatable, Sendable {
    public var r: Double, g: Double, b: Double, a: Double
    public init(r: Double, g: Double, b: Double, a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let black = Color(r: 0, g: 0, b: 0, a: 1)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    var isFinite: Bool { r.isFinite && g.isFinite && b.isFinite && a.isFinite }
    var isInUnitRange: Bool {
        [r, g, b, a].allSatisfy { $0 >= 0 && $0 <= 1 }
    }
}
