import Synchronization

/// The kinds of object a C handle can point at; named in error messages.
public enum ObjectKind: String, Sendable {
    case layer, image, path, display, canvas
    case animation, timingFunction = "timing function", action, displayLink = "display link"
    case emitterCell = "emitter cell"

    /// "a layer", "an image": for messages.
    public var withArticle: String {
        (rawValue.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + rawValue
    }
}

/// Base of every object handed out through the C API as an opaque pointer.
/// One handed to the program is registered, so that a stale, foreign or
/// wrong-kind pointer is an error rather than a crash, and so that the
/// references the program holds are counted apart from the library's own
/// (over-releasing is an error). Objects the library makes for itself
/// (implicit animations, their actions) register only if they are handed out.
open class Object: @unchecked Sendable {
    public let kind: ObjectKind
    /// Set under the registry's lock.
    fileprivate var registered = false

    public init(kind: ObjectKind) {
        self.kind = kind
    }

    /// Work to do when the object goes (the C boundary frees strings it handed out).
    /// nil until the first: most objects (an implicit animation) have none.
    private var deinitActions: [() -> Void]?

    deinit {
        // Read without the registry's lock: nothing can register an object
        // that is going (that needs a reference to it), and the last
        // release orders this after any registration. Most objects (an
        // implicit animation, its record's) never were, and skip the lock.
        if registered { HandleRegistry.shared.unregister(self) }
        if let deinitActions { for action in deinitActions { action() } }
    }

    public func onDeinit(_ action: @escaping () -> Void) { deinitActions = (deinitActions ?? []) + [action] }

    /// The C handle: the object's address.
    public var handle: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// The table of live objects, keyed by address. The table holds them weakly;
/// `externalReferences` counts the references owned by the program.
public final class HandleRegistry: Sendable {
    public static let shared = HandleRegistry()

    private struct Entry {
        weak var object: Object?
        var externalReferences: Int
    }

    private let entries = Mutex<[UInt: Entry]>([:])

    /// Makes `object` findable by its handle; returns the handle (+0).
    @discardableResult
    public func expose(_ object: Object) -> UnsafeMutableRawPointer {
        let key = UInt(bitPattern: object.handle)
        entries.withLock { table in
            guard !object.registered else { return }
            object.registered = true
            table[key] = Entry(object: object, externalReferences: 0)
        }
        return object.handle
    }

    func unregister(_ object: Object) {
        let key = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        entries.withLock { table in
            guard object.registered else { return }
            table.removeValue(forKey: key)
        }
    }

    /// A strong reference to the live object at `handle`, or nil.
    public func object(at handle: UnsafeRawPointer?) -> Object? {
        guard let handle else { return nil }
        let key = UInt(bitPattern: handle)
        return entries.withLock { $0[key]?.object }
    }

    /// Hands a new reference to the program (+1).
    public func passRetained(_ object: Object) -> UnsafeMutableRawPointer {
        let key = UInt(bitPattern: object.handle)
        entries.withLock { table in
            object.registered = true
            table[key, default: Entry(object: object, externalReferences: 0)].externalReferences += 1
        }
        return Unmanaged.passRetained(object).toOpaque()
    }

    /// lk_retain: one more program-owned reference.
    public func retain(_ handle: UnsafeRawPointer) throws(LayerKitError) -> Object {
        let key = UInt(bitPattern: handle)
        let object: Object? = entries.withLock { table in
            guard let live = table[key]?.object else { return nil }
            table[key]!.externalReferences += 1
            return live
        }
        guard let object else {
            throw LayerKitError.invalid("object: \(handle) is not a live LayerKit object")
        }
        _ = Unmanaged.passUnretained(object).retain()
        return object
    }

    /// lk_release: gives back one program-owned reference.
    public func release(_ handle: UnsafeRawPointer) throws(LayerKitError) {
        let key = UInt(bitPattern: handle)
        enum Outcome { case unknown, overReleased(ObjectKind), released(Object) }
        let outcome: Outcome = entries.withLock { table in
            guard let live = table[key]?.object else { return .unknown }
            guard table[key]!.externalReferences > 0 else { return .overReleased(live.kind) }
            table[key]!.externalReferences -= 1
            return .released(live)
        }
        switch outcome {
        case .unknown:
            throw LayerKitError.invalid("object: \(handle) is not a live LayerKit object (released already?)")
        case .overReleased(let kind):
            throw LayerKitError(.state, "object: the \(kind.rawValue) \(handle) has no reference left that the program owns (released once too often)")
        case .released(let object):
            // The registry's lookup gave a +1 of its own; drop both.
            Unmanaged.passUnretained(object).release()
        }
    }

}
