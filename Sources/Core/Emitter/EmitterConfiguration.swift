/// emitterShape (S7.4; CAEmitterLayer.h: "point" is the default).
public enum EmitterShape: Int32, CaseIterable, Sendable {
    case point = 0, line, rectangle, circle, cuboid, sphere

    public var name: String {
        switch self {
        case .point: "point"
        case .line: "line"
        case .rectangle: "rectangle"
        case .circle: "circle"
        case .cuboid: "cuboid"
        case .sphere: "sphere"
        }
    }

    public init?(name: String) {
        guard let v = EmitterShape.allCases.first(where: { $0.name == name }) else { return nil }
        self = v
    }
}

/// emitterMode: where on the shape particles are born (CAEmitterLayer.h:
/// "volume" is the default).
public enum EmitterMode: Int32, CaseIterable, Sendable {
    case points = 0, outline, surface, volume

    public var name: String {
        switch self {
        case .points: "points"
        case .outline: "outline"
        case .surface: "surface"
        case .volume: "volume"
        }
    }

    public init?(name: String) {
        guard let v = EmitterMode.allCases.first(where: { $0.name == name }) else { return nil }
        self = v
    }
}

/// renderMode (CAEmitterLayer.h: "unordered" is the default; the first
/// four composite source-over, "additive" adds).
public enum EmitterRenderMode: Int32, CaseIterable, Sendable {
    case unordered = 0, oldestFirst, oldestLast, backToFront, additive

    public var name: String {
        switch self {
        case .unordered: "unordered"
        case .oldestFirst: "oldestFirst"
        case .oldestLast: "oldestLast"
        case .backToFront: "backToFront"
        case .additive: "additive"
        }
    }

    public init?(name: String) {
        guard let v = EmitterRenderMode.allCases.first(where: { $0.name == name }) else { return nil }
        self = v
    }
}

/// The layer-level properties of an emitter layer (S7.4), with the defaults
/// of CAEmitterLayer.h: position, z, size and depth 0; every multiplier 1;
/// seed 0; preservesDepth false. The multipliers, like every cell
/// attribute, apply to particles when they are born ("Emitter cell
/// attribute multipliers only affect newly created particles").
public struct EmitterConfiguration: Equatable, Sendable {
    public var emitterPosition = Point.zero
    public var emitterZPosition = 0.0
    public var emitterSize = Size.zero
    public var emitterDepth = 0.0
    public var emitterShape = EmitterShape.point
    public var emitterMode = EmitterMode.volume
    public var renderMode = EmitterRenderMode.unordered
    /// Multiplies every cell's birthRate, nested cells' too.
    public var birthRate = 1.0
    /// Multiplies lifetime and lifetimeRange.
    public var lifetime = 1.0
    /// Multiplies velocity and velocityRange.
    public var velocity = 1.0
    /// Multiplies scale, scaleRange and scaleSpeed.
    public var scale = 1.0
    /// Multiplies spin and spinRange.
    public var spin = 1.0
    public var seed: UInt32 = 0
    public var preservesDepth = false

    public init() {}

    /// Checks every value; the error names the property.
    public func validate() throws(LayerKitError) {
        let numbers: [(String, Double)] = [
            ("emitterPosition.x", emitterPosition.x), ("emitterPosition.y", emitterPosition.y),
            ("emitterZPosition", emitterZPosition), ("emitterSize.width", emitterSize.width),
            ("emitterSize.height", emitterSize.height), ("emitterDepth", emitterDepth),
            ("birthRate", birthRate), ("lifetime", lifetime), ("velocity", velocity),
            ("scale", scale), ("spin", spin),
        ]
        for (key, v) in numbers where !v.isFinite {
            throw .invalid("\(key): \(v) is not finite")
        }
        for (key, v) in [("emitterSize.width", emitterSize.width), ("emitterSize.height", emitterSize.height),
                         ("emitterDepth", emitterDepth), ("birthRate", birthRate), ("lifetime", lifetime)] where v < 0 {
            throw .invalid("\(key): must not be negative (got \(v))")
        }
    }
}
