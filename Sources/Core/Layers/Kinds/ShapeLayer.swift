/// CAShapeLayer's properties (S7.1), with Core Animation's defaults.
public struct ShapeState: KindState {
    public static var kind: LayerKind { .shape }
    public var path: Path? = nil
    public var fillColor: Color? = .black
    public var fillRule = FillRule.nonZero
    public var strokeColor: Color? = nil
    public var lineWidth = 1.0
    public var lineCap = LineCap.butt
    public var lineJoin = LineJoin.miter
    public var miterLimit = 10.0
    public var lineDashPattern: [Double] = []
    public var lineDashPhase = 0.0
    public var strokeStart = 0.0
    public var strokeEnd = 1.0
    public init() {}
}

public enum FillRule: Int32, NamedValue, Sendable {
    case nonZero = 0, evenOdd
    public var name: String { self == .nonZero ? "non-zero" : "even-odd" }
}

public enum LineCap: Int32, NamedValue, Sendable {
    case butt = 0, round, square
    public var name: String { ["butt", "round", "square"][Int(rawValue)] }
}

public enum LineJoin: Int32, NamedValue, Sendable {
    case miter = 0, round, bevel
    public var name: String { ["miter", "round", "bevel"][Int(rawValue)] }
}

extension LayerState {
    public var shape: ShapeState {
        get { kindState(ShapeState.self) }
        set { setKindState(newValue) }
    }
}

/// The shape layer's rows of the property table.
public enum ShapeProperties {
    private static func row<T>(_ key: String, _ keyPath: WritableKeyPath<ShapeState, T>, animatable: Bool,
                               check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) -> Property<T> {
        let base: WritableKeyPath<LayerState, ShapeState> = \.shape
        return Property(key, base.appending(path: keyPath), animatable: animatable, effect: .appearance,
                 kind: .shape, check: check)
    }

    /// The layer keeps its own copy, as CGPath is immutable.
    public static let path = row("path", \.path, animatable: true) { p, _ in p?.frozen() }
    public static let fillColor = row("fillColor", \.fillColor, animatable: true) { c, _ throws(LayerKitError) in
        if let c { try checkUnitColor("fillColor", c) }
        return c
    }
    public static let fillRule = row("fillRule", \.fillRule, animatable: false)
    public static let strokeColor = row("strokeColor", \.strokeColor, animatable: true) { c, _ throws(LayerKitError) in
        if let c { try checkUnitColor("strokeColor", c) }
        return c
    }
    public static let lineWidth = row("lineWidth", \.lineWidth, animatable: true) { v, _ throws(LayerKitError) in
        try checkNonNegative("lineWidth", v)
    }
    public static let lineCap = row("lineCap", \.lineCap, animatable: false)
    public static let lineJoin = row("lineJoin", \.lineJoin, animatable: false)
    public static let miterLimit = row("miterLimit", \.miterLimit, animatable: true) { v, _ throws(LayerKitError) in
        try checkNonNegative("miterLimit", v)
    }
    /// Lengths, alternately painted and not; an empty list draws solid.
    public static let lineDashPattern = row("lineDashPattern", \.lineDashPattern, animatable: false) { v, _ throws(LayerKitError) in
        for (i, d) in v.enumerated() where d < 0 {
            throw .invalid("lineDashPattern: length \(i) is negative (\(d))")
        }
        if !v.isEmpty && v.allSatisfy({ $0 == 0 }) {
            throw .invalid("lineDashPattern: every length is 0; use an empty pattern for a solid line")
        }
        return v
    }
    public static let lineDashPhase = row("lineDashPhase", \.lineDashPhase, animatable: true)
    /// Core Animation clamps both ends to 0...1.
    public static let strokeStart = row("strokeStart", \.strokeStart, animatable: true) { v, _ in min(max(v, 0), 1) }
    public static let strokeEnd = row("strokeEnd", \.strokeEnd, animatable: true) { v, _ in min(max(v, 0), 1) }

    static let all: [AnyProperty] = [
        path.erased, fillColor.erased, fillRule.erased, strokeColor.erased, lineWidth.erased, lineCap.erased,
        lineJoin.erased, miterLimit.erased, lineDashPattern.erased, lineDashPhase.erased, strokeStart.erased,
        strokeEnd.erased,
    ]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}

func checkUnitColor(_ key: String, _ c: Color) throws(LayerKitError) {
    guard c.isInUnitRange else {
        throw .invalid("\(key): components must be within 0...1 (got \(describe(c.value)))")
    }
}

func checkNonNegative(_ key: String, _ v: Double) throws(LayerKitError) -> Double {
    guard v >= 0 else { throw .invalid("\(key): must not be negative (got \(v))") }
    return v
}
