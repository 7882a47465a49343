/// CAGradientLayer's properties (S7.3). No colours draws nothing; no
/// locations (or a count that differs from the colours') spreads the
/// colours evenly from 0 to 1.
public struct GradientState: KindState {
    public static var kind: LayerKind { .gradient }
    public var colors: [Color] = []
    public var locations: [Double] = []
    public var startPoint = Point(x: 0.5, y: 0)
    public var endPoint = Point(x: 0.5, y: 1)
    public var type = GradientType.axial
    public init() {}
}

public enum GradientType: Int32, NamedValue, Sendable {
    case axial = 0, radial, conic
    public var name: String { ["axial", "radial", "conic"][Int(rawValue)] }
}

extension LayerState {
    public var gradient: GradientState {
        get { kindState(GradientState.self) }
        set { setKindState(newValue) }
    }
}

/// The gradient layer's rows of the property table; all animatable (S7.3).
public enum GradientProperties {
    private static func row<T>(_ key: String, _ keyPath: WritableKeyPath<GradientState, T>, animatable: Bool = true,
                               check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) -> Property<T> {
        let base: WritableKeyPath<LayerState, GradientState> = \.gradient
        return Property(key, base.appending(path: keyPath), animatable: animatable, effect: .appearance,
                 kind: .gradient, check: check)
    }

    public static let colors = row("colors", \.colors) { colors, _ throws(LayerKitError) in
        for (i, c) in colors.enumerated() { try checkUnitColor("colors[\(i)]", c) }
        return colors
    }
    /// Within 0...1 and in order, as the stops of a gradient are.
    public static let locations = row("locations", \.locations) { locations, _ throws(LayerKitError) in
        for (i, l) in locations.enumerated() {
            guard l >= 0, l <= 1 else { throw .invalid("locations: location \(i) (\(l)) is outside 0...1") }
            if i > 0, l < locations[i - 1] {
                throw .invalid("locations: location \(i) (\(l)) is less than the one before it (\(locations[i - 1]))")
            }
        }
        return locations
    }
    public static let startPoint = row("startPoint", \.startPoint)
    public static let endPoint = row("endPoint", \.endPoint)
    /// Switches like any discrete value when animated.
    public static let type = row("type", \.type)

    static let all: [AnyProperty] = [colors.erased, locations.erased, startPoint.erased, endPoint.erased, type.erased]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}

extension GradientState {
    /// The stops to draw, within 0...1 and in order of location: the same
    /// gradient over 0...1 as the state's. The model's locations always are
    /// (their setter checks), but an animation may take them out of the
    /// range or past each other on the way: an overshooting curve or a
    /// spring, one location animated past its neighbour, or the shimmer
    /// recipe that slides its stops from -1...0 to 1...2 (such a frame was
    /// refused by the backend, and nothing of it drawn). Stops are taken in
    /// order of location (equal ones as given); those below 0 and above 1
    /// give way to the colour the gradient has at 0 and at 1, interpolated
    /// as the backends do (the straight colour and the alpha), which the
    /// end stops extend beyond, as ever. nil: the state's stops as they are
    /// (the usual case, no copy).
    func stopsWithinUnitRange() -> [(location: Double, color: Color)]? {
        let n = colors.count
        guard n > 0, locations.count == n else { return nil }
        var previous = 0.0
        var inOrder = true
        for l in locations {
            guard l >= previous, l <= 1 else { inOrder = false; break }   // (NaN fails too)
            previous = l
        }
        if inOrder { return nil }
        let stops = zip(locations, colors).enumerated()
            .map { (index: $0.offset, location: $0.element.0.isNaN ? 0 : $0.element.0, color: $0.element.1) }
            .sorted { ($0.location, $0.index) < ($1.location, $1.index) }
        func colour(at x: Double, from a: Int, to b: Int) -> Color {
            let span = stops[b].location - stops[a].location
            let t = span > 0 ? (x - stops[a].location) / span : 1
            let p = stops[a].color, q = stops[b].color
            return Color(r: p.r + (q.r - p.r) * t, g: p.g + (q.g - p.g) * t,
                         b: p.b + (q.b - p.b) * t, a: p.a + (q.a - p.a) * t)
        }
        // Every stop on one side: that side's nearest colour everywhere.
        guard let firstInside = stops.firstIndex(where: { $0.location >= 0 }) else {
            return [(0, stops[n - 1].color), (1, stops[n - 1].color)]
        }
        let firstAbove = stops.firstIndex { $0.location > 1 }
        if firstAbove == 0 { return [(0, stops[0].color), (1, stops[0].color)] }
        var drawn: [(location: Double, color: Color)] = []
        drawn.reserveCapacity(n + 2)
        if firstInside > 0 { drawn.append((0, colour(at: 0, from: firstInside - 1, to: firstInside))) }
        for stop in stops[firstInside..<(firstAbove ?? n)] { drawn.append((stop.location, stop.color)) }
        if let firstAbove { drawn.append((1, colour(at: 1, from: firstAbove - 1, to: firstAbove))) }
        return drawn
    }
}
