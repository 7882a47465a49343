import Synchronization

/// The trees open displays show, by their roots (S3.4: `onOrderIn` and
/// `onOrderOut` are for a layer added to or removed from a tree that is
/// shown, not for trees a program builds off screen). A display holds its
/// root, so a root named here is alive.
final class ShownTrees: Sendable {
    static let shared = ShownTrees()

    private let roots = Mutex<[ObjectIdentifier: Int]>([:])

    /// A display shows `root` from now on (one count per display).
    func show(_ root: Layer?) {
        guard let root else { return }
        roots.withLock { $0[ObjectIdentifier(root), default: 0] += 1 }
    }

    /// A display no longer shows `root`.
    func hide(_ root: Layer?) {
        guard let root else { return }
        roots.withLock { table in
            let key = ObjectIdentifier(root)
            if let n = table[key] { table[key] = n > 1 ? n - 1 : nil }
        }
    }

    /// Whether `layer` is an open display's root.
    func isRoot(_ layer: Layer) -> Bool {
        let key = ObjectIdentifier(layer)
        return roots.withLock { $0[key] != nil }
    }

    /// Whether the tree `layer` is in is shown by a display.
    func shows(_ layer: Layer) -> Bool {
        let root = ObjectIdentifier(layer.rootLayer)
        return roots.withLock { $0[root] != nil }
    }
}
