/// A Swift type that a property can hold, with its conversion to and from
/// the boundary's Value.
public protocol PropertyValue: Equatable {
    static var valueType: ValueType { get }
    /// The typed value inside `value`, or nil when it is of another type.
    static func from(_ value: Value) -> Self?
    var value: Value { get }
    /// False when a number inside is NaN or infinite.
    var isFiniteValue: Bool { get }
}

extension Double: PropertyValue {
    public static var valueType: ValueType { .number }
    public static func from(_ value: Value) -> Double? { if case .number(let v) = value { v } else { nil } }
    public var value: Value { .number(self) }
    public var isFiniteValue: Bool { isFinite }
}

extension Bool: PropertyValue {
    public static var valueType: ValueType { .bool }
    public static func from(_ value: Value) -> Bool? {
        switch value {
        case .bool(let v): v
        // Numbers stand for booleans in key-value coding (NSNumber).
        case .number(let n) where n == 0 || n == 1: n == 1
        default: nil
        }
    }
    public var value: Value { .bool(self) }
    public var isFiniteValue: Bool { true }
}

extension Point: PropertyValue {
    public static var valueType: ValueType { .point }
    public static func from(_ value: Value) -> Point? { if case .point(let v) = value { v } else { nil } }
    public var value: Value { .point(self) }
    public var isFiniteValue: Bool { isFinite }
}

extension Size: PropertyValue {
    public static var valueType: ValueType { .size }
    public static func from(_ value: Value) -> Size? { if case .size(let v) = value { v } else { nil } }
    public var value: Value { .size(self) }
    public var isFiniteValue: Bool { isFinite }
}

extension Rect: PropertyValue {
    public static var valueType: ValueType { .rect }
    public static func from(_ value: Value) -> Rect? { if case .rect(let v) = value { v } else { nil } }
    public var value: Value { .rect(self) }
    public var isFiniteValue: Bool { isFinite }
}

extension Color: PropertyValue {
    public static var valueType: ValueType { .color }
    public static func from(_ value: Value) -> Color? { if case .color(let v) = value { v } else { nil } }
    public var value: Value { .color(self) }
    public var isFiniteValue: Bool { isFinite }
}

extension Transform3D: PropertyValue {
    public static var valueType: ValueType { .transform }
    public static func from(_ value: Value) -> Transform3D? { if case .transform(let v) = value { v } else { nil } }
    public var value: Value { .transform(self) }
    public var isFiniteValue: Bool { isFinite }
}

// ContentsGravity and FillMode are NamedValues (LayerEnums.swift).

/// Types that an optional property holds; none is `Value.none`.
public protocol OptionalPropertyPayload: Equatable {
    static var payloadType: ValueType { get }
    static func payload(from value: Value) -> Self?
    var payloadValue: Value { get }
    var isFinitePayload: Bool { get }
}

extension Optional: PropertyValue where Wrapped: OptionalPropertyPayload {
    public static var valueType: ValueType { Wrapped.payloadType }
    public static func from(_ value: Value) -> Wrapped?? {
        if case .none = value { return .some(nil) }
        guard let payload = Wrapped.payload(from: value) else { return nil }
        return .some(payload)
    }
    // Closures, not key paths: this conformance is used unspecialized
    // (through PropertyValue), where a key path is built at run time at
    // each call (swift_getKeyPath, about 8,000 instructions).
    public var value: Value { if let wrapped = self { wrapped.payloadValue } else { .none } }
    public var isFiniteValue: Bool { if let wrapped = self { wrapped.isFinitePayload } else { true } }
}

extension Color: OptionalPropertyPayload {
    public static var payloadType: ValueType { .color }
    public static func payload(from value: Value) -> Color? { from(value) }
    public var payloadValue: Value { value }
    public var isFinitePayload: Bool { isFinite }
}

extension String: OptionalPropertyPayload {
    public static var payloadType: ValueType { .string }
    public static func payload(from value: Value) -> String? { if case .string(let s) = value { s } else { nil } }
    public var payloadValue: Value { .string(self) }
    public var isFinitePayload: Bool { true }
}

extension Image: OptionalPropertyPayload {
    public static var payloadType: ValueType { .image }
    public static func payload(from value: Value) -> Self? { if case .image(let i) = value { i as? Self } else { nil } }
    public var payloadValue: Value { .image(self) }
    public var isFinitePayload: Bool { true }
}

extension Path: OptionalPropertyPayload {
    public static var payloadType: ValueType { .path }
    public static func payload(from value: Value) -> Self? { if case .path(let p) = value { p as? Self } else { nil } }
    public var payloadValue: Value { .path(self) }
    public var isFinitePayload: Bool { true }
}

extension Layer: OptionalPropertyPayload {
    public static var payloadType: ValueType { .layer }
    public static func payload(from value: Value) -> Self? { if case .layer(let l) = value { l as? Self } else { nil } }
    public var payloadValue: Value { .layer(self) }
    public var isFinitePayload: Bool { true }
}

extension Object: Equatable {
    /// Objects are equal only to themselves.
    public static func == (a: Object, b: Object) -> Bool { a === b }
}
