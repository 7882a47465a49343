/// The property table of emitter cells (S7.4): one row per property with its
/// Core Animation key, value type and validation. Typed C setters and
/// key-value access both go through these rows.
public struct EmitterCellProperty: @unchecked Sendable {
    public let key: String
    public let type: ValueType
    let read: (EmitterCell) -> Value
    /// Validates and stores; `keyPath` is the whole path for messages.
    let write: (EmitterCell, Value, String) throws(LayerKitError) -> Void
}

public enum EmitterCellProperties {
    /// A number row: finite unless `allowsInfinity`, then `check` (which
    /// returns the value to store).
    static func number(_ key: String, _ path: WritableKeyPath<EmitterCellAttributes, Double>,
                       allowsInfinity: Bool = false,
                       check: @escaping (Double, String, EmitterCellAttributes) throws(LayerKitError) -> Double = { v, _, _ in v })
        -> EmitterCellProperty {
        EmitterCellProperty(key: key, type: .number, read: { .number($0.attributes[keyPath: path]) },
                            write: { (cell, value, keyPath) throws(LayerKitError) in
                                guard case .number(let n) = value else { throw expected(keyPath, "a number", value) }
                                guard allowsInfinity ? !n.isNaN : n.isFinite else {
                                    throw .invalid("\(keyPath): \(describe(value)) is not \(allowsInfinity ? "a number" : "finite")")
                                }
                                cell.attributes[keyPath: path] = try check(n, keyPath, cell.attributes)
                            })
    }

    static func positive(_ v: Double, _ keyPath: String, _: EmitterCellAttributes) throws(LayerKitError) -> Double {
        guard v > 0 else { throw .invalid("\(keyPath): must be greater than 0 (got \(v))") }
        return v
    }

    static func nonNegative(_ v: Double, _ keyPath: String, _: EmitterCellAttributes) throws(LayerKitError) -> Double {
        guard v >= 0 else { throw .invalid("\(keyPath): must not be negative (got \(v))") }
        return v
    }

    static func expected(_ keyPath: String, _ what: String, _ got: Value) -> LayerKitError {
        LayerKitError(.typeMismatch, "\(keyPath): expected \(what) value, got \(describe(got))")
    }

    public static let birthRate = number("birthRate", \.birthRate, check: nonNegative)
    public static let lifetime = number("lifetime", \.lifetime, check: nonNegative)
    public static let lifetimeRange = number("lifetimeRange", \.lifetimeRange)
    public static let emissionLatitude = number("emissionLatitude", \.emissionLatitude)
    public static let emissionLongitude = number("emissionLongitude", \.emissionLongitude)
    public static let emissionRange = number("emissionRange", \.emissionRange)
    public static let velocity = number("velocity", \.velocity)
    public static let velocityRange = number("velocityRange", \.velocityRange)
    public static let xAcceleration = number("xAcceleration", \.xAcceleration)
    public static let yAcceleration = number("yAcceleration", \.yAcceleration)
    public static let zAcceleration = number("zAcceleration", \.zAcceleration)
    public static let scale = number("scale", \.scale)
    public static let scaleRange = number("scaleRange", \.scaleRange)
    public static let scaleSpeed = number("scaleSpeed", \.scaleSpeed)
    public static let spin = number("spin", \.spin)
    public static let spinRange = number("spinRange", \.spinRange)
    public static let redRange = number("redRange", \.redRange)
    public static let greenRange = number("greenRange", \.greenRange)
    public static let blueRange = number("blueRange", \.blueRange)
    public static let alphaRange = number("alphaRange", \.alphaRange)
    public static let redSpeed = number("redSpeed", \.redSpeed)
    public static let greenSpeed = number("greenSpeed", \.greenSpeed)
    public static let blueSpeed = number("blueSpeed", \.blueSpeed)
    public static let alphaSpeed = number("alphaSpeed", \.alphaSpeed)

    public static let color = EmitterCellProperty(
        key: "color", type: .color, read: { .color($0.attributes.color) },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            guard case .color(let c) = value else { throw expected(keyPath, "a color", value) }
            guard c.isFinite, c.isInUnitRange else {
                throw .invalid("\(keyPath): components must be finite and within 0...1 (got \(describe(value)))")
            }
            cell.attributes.color = c
        })

    public static let contentsRect = EmitterCellProperty(
        key: "contentsRect", type: .rect, read: { .rect($0.attributes.contentsRect) },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            guard case .rect(let r) = value else { throw expected(keyPath, "a rect", value) }
            guard r.isFinite else { throw .invalid("\(keyPath): \(describe(value)) is not finite") }
            cell.attributes.contentsRect = r
        })

    public static let contentsScale = number("contentsScale", \.contentsScale, check: positive)

    /// A row of an enumeration set by Core Animation's names (fillMode, the
    /// contents filters): one of T's names.
    static func named<T: NamedValue>(_ key: String, _ path: WritableKeyPath<EmitterCellAttributes, T>)
        -> EmitterCellProperty {
        EmitterCellProperty(key: key, type: .string, read: { .string($0.attributes[keyPath: path].name) },
                            write: { (cell, value, keyPath) throws(LayerKitError) in
                                guard case .string(let s) = value, let v = T(name: s) else {
                                    throw mismatch(keyPath, .string, value, T.self)
                                }
                                cell.attributes[keyPath: path] = v
                            })
    }

    public static let magnificationFilter = named("magnificationFilter", \.magnificationFilter)
    public static let minificationFilter = named("minificationFilter", \.minificationFilter)
    public static let minificationFilterBias = number("minificationFilterBias", \.minificationFilterBias)

    public static let enabled = EmitterCellProperty(
        key: "enabled", type: .bool, read: { .bool($0.attributes.enabled) },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            switch value {
            case .bool(let b): cell.attributes.enabled = b
            case .number(let n) where n == 0 || n == 1: cell.attributes.enabled = n == 1
            default: throw expected(keyPath, "a bool (or the number 0 or 1)", value)
            }
        })

    public static let name = EmitterCellProperty(
        key: "name", type: .string, read: { $0.name.map(Value.string) ?? .none },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            switch value {
            case .string(let s): cell.name = s
            case .none: cell.name = nil
            default: throw expected(keyPath, "a string (or none)", value)
            }
        })

    public static let contents = EmitterCellProperty(
        key: "contents", type: .image, read: { $0.contents.map(Value.image) ?? .none },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            switch value {
            case .image(let i): cell.contents = i
            case .none: cell.contents = nil
            default: throw expected(keyPath, "an image (or none)", value)
            }
        })

    // Timing (S4.1): CAEmitterCell adopts CAMediaTiming.
    public static let beginTime = number("beginTime", \.timing.beginTime)
    public static let duration = number("duration", \.timing.duration, allowsInfinity: true, check: nonNegative)
    public static let speed = number("speed", \.timing.speed)
    public static let timeOffset = number("timeOffset", \.timing.timeOffset)
    public static let repeatCount = number("repeatCount", \.timing.repeatCount, allowsInfinity: true) { v, keyPath, a throws(LayerKitError) in
        let v = try nonNegative(v, keyPath, a)
        if v != 0, a.timing.repeatDuration != 0 {
            throw LayerKitError(.state, "\(keyPath): repeatDuration is already set (\(a.timing.repeatDuration)); the two are exclusive (S4.4)")
        }
        return v
    }
    public static let repeatDuration = number("repeatDuration", \.timing.repeatDuration, allowsInfinity: true) { v, keyPath, a throws(LayerKitError) in
        let v = try nonNegative(v, keyPath, a)
        if v != 0, a.timing.repeatCount != 0 {
            throw LayerKitError(.state, "\(keyPath): repeatCount is already set (\(a.timing.repeatCount)); the two are exclusive (S4.4)")
        }
        return v
    }
    public static let autoreverses = EmitterCellProperty(
        key: "autoreverses", type: .bool, read: { .bool($0.attributes.timing.autoreverses) },
        write: { (cell, value, keyPath) throws(LayerKitError) in
            switch value {
            case .bool(let b): cell.attributes.timing.autoreverses = b
            case .number(let n) where n == 0 || n == 1: cell.attributes.timing.autoreverses = n == 1
            default: throw expected(keyPath, "a bool (or the number 0 or 1)", value)
            }
        })
    public static let fillMode = named("fillMode", \.timing.fillMode)

    public static let all: [EmitterCellProperty] = [
        name, enabled, birthRate, lifetime, lifetimeRange, emissionLatitude, emissionLongitude,
        emissionRange, velocity, velocityRange, xAcceleration, yAcceleration, zAcceleration,
        scale, scaleRange, scaleSpeed, spin, spinRange, color, redRange, greenRange, blueRange,
        alphaRange, redSpeed, greenSpeed, blueSpeed, alphaSpeed, contents, contentsRect, contentsScale,
        magnificationFilter, minificationFilter, minificationFilterBias,
        beginTime, duration, speed, timeOffset, repeatCount, repeatDuration, autoreverses, fillMode,
    ]

    static let byKey: [String: EmitterCellProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    public static func named(_ key: String) -> EmitterCellProperty? { byKey[key] }
}

/// Key-value access on cells: every property by its Core Animation name, the
/// parts of compound values ("contentsRect.size.width") and sub-cells by
/// name to any depth ("emitterCells.spark.birthRate").
extension EmitterCell {
    public func value(forKeyPath keyPath: String) throws(LayerKitError) -> Value {
        let (cell, property, rest) = try resolve(keyPath)
        let whole = property.read(cell)
        return try component(whole, rest, keyPath)
    }

    public func setValue(_ value: Value, forKeyPath keyPath: String) throws(LayerKitError) {
        let (cell, property, rest) = try resolve(keyPath)
        if rest.isEmpty {
            try property.write(cell, value, keyPath)
            return
        }
        let updated = try KeyPathParts.replacing(in: property.read(cell), path: rest, with: value, keyPath: keyPath)
        try property.write(cell, updated, keyPath)
    }

    public func valueType(forKeyPath keyPath: String) throws(LayerKitError) -> ValueType {
        let (cell, property, rest) = try resolve(keyPath)
        if rest.isEmpty { return property.type }
        return try component(property.read(cell), rest, keyPath).type
    }

    private func component(_ whole: Value, _ rest: [Substring], _ keyPath: String) throws(LayerKitError) -> Value {
        guard !rest.isEmpty else { return whole }
        // The parts of a rect only: a colour or number has none.
        guard case .rect = whole else { throw EmitterCell.unknown(keyPath, "") }
        do { return try KeyPathParts.component(of: whole, path: rest, keyPath: keyPath) } catch {
            throw EmitterCell.unknown(keyPath, "")
        }
    }

    /// The cell a key path ends in, the property row and the parts after it.
    func resolve(_ keyPath: String) throws(LayerKitError) -> (EmitterCell, EmitterCellProperty, [Substring]) {
        if let property = EmitterCellProperties.named(keyPath) { return (self, property, []) }
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)[...]
        var cell = self
        while parts.first == "emitterCells" {
            parts = parts.dropFirst()
            guard let name = parts.first, !name.isEmpty else {
                throw EmitterCell.unknown(keyPath, ": \"emitterCells\" must be followed by a cell name")
            }
            guard let sub = cell.subcell(named: name) else {
                throw LayerKitError(.unknownKeyPath, "key_path: \"\(keyPath)\": no sub-cell named \"\(name)\"")
            }
            cell = sub
            parts = parts.dropFirst()
        }
        guard let first = parts.first, let property = EmitterCellProperties.named(String(first)) else {
            throw EmitterCell.unknown(keyPath, "")
        }
        return (cell, property, Array(parts.dropFirst()))
    }

    static func unknown(_ keyPath: String, _ detail: String) -> LayerKitError {
        LayerKitError(.unknownKeyPath, "key_path: \"\(keyPath)\" is not a property of an emitter cell\(detail)")
    }
}

extension EmitterCellProperty {
    /// Sets the whole property (a typed setter); errors name the key.
    public func set(on cell: EmitterCell, _ value: Value) throws(LayerKitError) { try write(cell, value, key) }
    public func get(from cell: EmitterCell) -> Value { read(cell) }
}
