/// lk_path: a mutable path object. Layers and values keep frozen ones: a
/// CGPath is immutable, and a path a getter hands out changed in place
/// changed the model behind every transaction (the model and the screen
/// then disagreed for good).
public final class Path: Object, @unchecked Sendable {
    public var data: PathData
    /// A layer's or a value's own path: the C API refuses to change it.
    public let isFrozen: Bool

    public init(_ data: PathData = PathData(), frozen: Bool = false) {
        self.data = data
        self.isFrozen = frozen
        super.init(kind: .path)
    }

    /// A new, mutable path with the same elements.
    public func copy() -> Path { Path(data) }

    /// The path as a layer or a value keeps it: this one when already
    /// frozen (nothing can change it), else a frozen copy.
    public func frozen() -> Path { isFrozen ? self : Path(data, frozen: true) }
}
