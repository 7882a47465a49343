/// A value of any property type: what crosses the key-path boundary (S1.6)
/// and what user values hold. Inside the core, properties are typed.
public enum Value: Equatable, @unchecked Sendable {
    case none
    case number(Double)
    case bool(Bool)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    case transform(Transform3D)
    case image(Image)
    case path(Path)
    case string(String)
    case layer(Layer)
    /// Lists (gradient colours and locations, dash patterns): inside the core
    /// only; the C API reaches them through typed calls and "colors.N".
    case list([Value])

    /// Whether it is a layer (a reference that can close a loop of layers).
    var holdsLayer: Bool { if case .layer = self { true } else { false } }

    /// Whether every number in it is finite (S8.1: NaN and infinite
    /// geometry are refused, in an animation's values too).
    public var isFinite: Bool {
        switch self {
        case .number(let n): n.isFinite
        case .point(let p): p.isFinite
        case .size(let s): s.isFinite
        case .rect(let r): r.isFinite
        case .color(let c): c.isFinite
        case .transform(let t): t.isFinite
        case .list(let items): items.allSatisfy(\.isFinite)
        case .none, .bool, .image, .path, .string, .layer: true
        }
    }

    public var type: ValueType {
        switch self {
        case .none: .none
        case .number: .number
        case .bool: .bool
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .color: .color
        case .transform: .transform
        case .image: .image
        case .path: .path
        case .string: .string
        case .layer: .layer
        case .list: .list
        }
    }

    public static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.none, .none): true
        case let (.number(x), .number(y)): x == y
        case let (.bool(x), .bool(y)): x == y
        case let (.point(x), .point(y)): x == y
        case let (.size(x), .size(y)): x == y
        case let (.rect(x), .rect(y)): x == y
        case let (.color(x), .color(y)): x == y
        case let (.transform(x), .transform(y)): x == y
        case let (.image(x), .image(y)): x === y
        case let (.path(x), .path(y)): x === y
        case let (.string(x), .string(y)): x == y
        case let (.layer(x), .layer(y)): x === y
        case let (.list(x), .list(y)): x == y
        default: false
        }
    }
}

/// The type tags of lk_value_type, in the same order.
public enum ValueType: Int32, Sendable, CustomStringConvertible {
    case none = 0, number, bool, point, size, rect, color, transform, image, path, string, layer
    /// No lk_value_type: see Value.list.
    case list = 100

    public var description: String {
        switch self {
        case .none: "none"
        case .number: "number"
        case .bool: "bool"
        case .point: "point"
        case .size: "size"
        case .rect: "rect"
        case .color: "color"
        case .transform: "transform"
        case .image: "image"
        case .path: "path"
        case .string: "string"
        case .layer: "layer"
        case .list: "list"
        }
    }
}
