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
