/// lk_path: a mutable path object. Layers keep immutable copies.
public final class Path: Object, @unchecked Sendable {
    public var data: PathData

    public init(_ data: PathData = PathData()) {
        self.data = data
        super.init(kind: .path)
    }

    public func copy() -> Path { Path(data) }
}
