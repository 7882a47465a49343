/// What a change of a property invalidates when the frame is rebuilt.
public struct PropertyEffect: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Where the layer and its subtree land (bounds, position, transforms).
    public static let geometry = PropertyEffect(rawValue: 1 << 0)
    /// How the layer itself looks (colours, opacity, border, contents).
    public static let appearance = PropertyEffect(rawValue: 1 << 1)
    /// Timing only: nothing visible changes by itself.
    public static let timing = PropertyEffect(rawValue: 1 << 2)
    /// No visual effect (name).
    public static let none: PropertyEffect = []
}

/// One row of the property table: a stored property of LayerState with its
/// key, type, animatability, effect and validation. Typed setters, key-value
/// access and (later) actions, interpolation and damage all read this row.
public struct Property<T: PropertyValue>: @unchecked Sendable {
    public let key: String
    let keyPath: WritableKeyPath<LayerState, T>
    public let animatable: Bool
    public let effect: PropertyEffect
    /// The kind of layer that has it; .plain for every layer's (S1.1).
    public let kind: LayerKind
    /// Checks a new value against the rest of the state; returns the value to
    /// store (clamped where Core Animation clamps). Finiteness is checked
    /// first. nil: any finite value; then no copy of the state is made.
    let check: ((T, LayerState) throws(LayerKitError) -> T)?
    let allowsInfinity: Bool
    /// Where the field lives in LayerState (nil for a computed one): `set`
    /// reads and writes it there, not through the key path, which in
    /// generic code copies the whole state out and back.
    let offset: Int?

    init(_ key: String, _ keyPath: WritableKeyPath<LayerState, T>, animatable: Bool, effect: PropertyEffect,
         kind: LayerKind = .plain, allowsInfinity: Bool = false,
         check: ((T, LayerState) throws(LayerKitError) -> T)? = nil) {
        self.key = key
        self.keyPath = keyPath
        self.animatable = animatable
        self.effect = effect
        self.kind = kind
        self.allowsInfinity = allowsInfinity
        self.check = check
        offset = MemoryLayout<LayerState>.offset(of: keyPath)
    }

    /// The value to store, or an error naming the property and what was wrong.
    func validated(_ value: T, in state: LayerState) throws(LayerKitError) -> T {
        try validated(value) { state }
    }

    /// The same, reading the state only for a property with a check: most
    /// have none, and a state is hundreds of bytes to copy.
    @inline(__always)
    func validated(_ value: T, state: () -> LayerState) throws(LayerKitError) -> T {
        if !allowsInfinity, !value.isFiniteValue {
            throw .invalid("\(key): \(describe(value.value)) is not finite")
        }
        guard let check else { return value }
        return try check(value, state())
    }

    var erased: AnyProperty {
        // A stored field is read at its offset: applying the key path to
        // the pointee copies the whole state first (hundreds of bytes per
        // read, on every presentation value).
        let read: (UnsafePointer<LayerState>) -> Value
        if let offset = MemoryLayout<LayerState>.offset(of: keyPath) {
            read = { state in UnsafeRawPointer(state).advanced(by: offset).assumingMemoryBound(to: T.self).pointee.value }
        } else {
            read = { state in state.pointee[keyPath: keyPath].value }
        }
        return AnyProperty(key: key, type: T.valueType, animatable: animatable, acceptsNone: T.from(.none) != nil,
                    effect: effect, kind: kind, read: read,
                    set: { (layer, value) throws(LayerKitError) in
                        guard let typed = T.from(value) else { throw mismatch(key, T.valueType, value, T.self) }
                        try layer.set(self, typed)
                    },
                    setState: { state, value in
                        guard let typed = T.from(value) else { return false }
                        state[keyPath: keyPath] = typed
                        return true
                    },
                    slot: FieldSlot.make(key: key, subpath: []),
                    offset: MemoryLayout<LayerState>.offset(of: keyPath))
    }
}

/// A property seen through Values, for key paths and iteration. A class:
/// the rows are made once, and every animation record holds one, so a copy
/// is one reference, not a string and three closures.
public final class AnyProperty: @unchecked Sendable {
    public let key: String
    public let type: ValueType
    public let animatable: Bool
    /// Whether `.none` is one of its values (an optional colour, image, path, layer).
    public let acceptsNone: Bool
    public let effect: PropertyEffect
    public let kind: LayerKind
    /// Reads the value from a state (the model's or a presentation); by
    /// address, so that no call copies the whole state.
    let read: (UnsafePointer<LayerState>) -> Value

    func get(_ state: LayerState) -> Value {
        withUnsafePointer(to: state) { read($0) }
    }
    /// Sets it on a layer: validation, change tracking, actions.
    let set: (Layer, Value) throws(LayerKitError) -> Void
    /// Sets it in a state with no checks: how animations apply their values.
    let setState: (inout LayerState, Value) -> Bool
    /// Where the field lives, for the properties animations write in place;
    /// resolved once here, not for every animation added.
    let slot: FieldSlot?
    /// Where its field lives in LayerState (nil for a computed one): how
    /// `Layer.set` finds the row for its action without hashing the key.
    let offset: Int?

    init(key: String, type: ValueType, animatable: Bool, acceptsNone: Bool = false, effect: PropertyEffect,
         kind: LayerKind = .plain, read: @escaping (UnsafePointer<LayerState>) -> Value,
         set: @escaping (Layer, Value) throws(LayerKitError) -> Void,
         setState: @escaping (inout LayerState, Value) -> Bool, slot: FieldSlot? = nil, offset: Int? = nil) {
        self.offset = offset
        self.key = key
        self.type = type
        self.animatable = animatable
        self.acceptsNone = acceptsNone
        self.effect = effect
        self.kind = kind
        self.read = read
        self.set = set
        self.setState = setState
        self.slot = slot
    }
}

func mismatch<T>(_ key: String, _ expected: ValueType, _ got: Value, _: T.Type) -> LayerKitError {
    var expectation = "a \(expected) value"
    if let named = T.self as? any NamedValue.Type {
        let names = named.allNames.map { "\"\($0)\"" }.joined(separator: ", ")
        // A string that names nothing: said so (it read "expected a string ... got the string").
        if case .string(let s) = got {
            return LayerKitError(.typeMismatch, "\(key): \"\(s)\" is not one of \(names) (names are case-sensitive)")
        }
        expectation = "a string, one of " + names
    } else if T.self == Bool.self {
        expectation = "a bool value (or the number 0 or 1)"
    } else if let optional = T.self as? any OptionalNoneAccepting.Type {
        expectation = "a \(optional.payloadTypeName) value or none"
    }
    return LayerKitError(.typeMismatch, "\(key): expected \(expectation), got \(describe(got))")
}

/// Lets messages say that an optional property also takes none.
protocol OptionalNoneAccepting { static var payloadTypeName: String { get } }
extension Optional: OptionalNoneAccepting where Wrapped: OptionalPropertyPayload {
    static var payloadTypeName: String { Wrapped.payloadType.description }
}

/// A short description of a value for error messages.
func describe(_ value: Value) -> String {
    func n(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
    switch value {
    case .none: return "none"
    case .number(let d): return "the number \(n(d))"
    case .bool(let b): return "the bool \(b)"
    case .point(let p): return "the point (\(n(p.x)), \(n(p.y)))"
    case .size(let s): return "the size (\(n(s.width)), \(n(s.height)))"
    case .rect(let r): return "the rect (\(n(r.origin.x)), \(n(r.origin.y)), \(n(r.size.width)), \(n(r.size.height)))"
    case .color(let c): return "the color (\(n(c.r)), \(n(c.g)), \(n(c.b)), \(n(c.a)))"
    case .transform(let t): return "a transform [" + t.elements.map(n).joined(separator: " ") + "]"
    case .image: return "an image"
    case .path: return "a path"
    case .string(let s): return "the string \"\(s)\""
    case .layer: return "a layer"
    case .list(let items): return "a list of \(items.count)"
    }
}
