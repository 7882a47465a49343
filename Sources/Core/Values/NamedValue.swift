/// Enumerations that key paths carry as strings, named as Core Animation
/// names its constants ("even-odd" for kCAFillRuleEvenOdd).
public protocol NamedValue: CaseIterable, PropertyValue {
    var name: String { get }
}

extension NamedValue {
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
    static var allNames: [String] { allCases.map(\.name) }
    public static var valueType: ValueType { .string }
    public static func from(_ value: Value) -> Self? {
        if case .string(let s) = value { Self(name: s) } else { nil }
    }
    public var value: Value { .string(name) }
    public var isFiniteValue: Bool { true }
}

/// What a list property holds: numbers (locations, dash lengths) or colours.
public protocol ListElement: PropertyValue {}
extension Double: ListElement {}
extension Color: ListElement {}

extension Array: PropertyValue where Element: ListElement {
    public static var valueType: ValueType { .list }
    public static func from(_ value: Value) -> [Element]? {
        guard case .list(let items) = value else { return nil }
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let e = Element.from(item) else { return nil }
            out.append(e)
        }
        return out
    }
    // Closures, not key paths (see Optional's conformance in PropertyValue.swift).
    public var value: Value { .list(map { $0.value }) }
    public var isFiniteValue: Bool { allSatisfy { $0.isFiniteValue } }
}

extension String: PropertyValue {
    public static var valueType: ValueType { .string }
    public static func from(_ value: Value) -> String? { if case .string(let s) = value { s } else { nil } }
    public var value: Value { .string(self) }
    public var isFiniteValue: Bool { true }
}
