import CLayerKit
import Glibc
import LayerKitCore

// The C boundary: handles to objects, lk_status and lk_last_error, and C
// value structs to Swift values. Every entry point is a few lines on top of
// these helpers.

// MARK: - Last error (thread-local)

/// One buffer per thread whose address never changes, so a pointer from
/// lk_last_error() stays usable however calls are ordered; a message longer
/// than the buffer is cut at a character boundary.
private final class ErrorSlot {
    static let capacity = 1024
    let message: UnsafeMutablePointer<CChar> = .allocate(capacity: capacity)
    init() { message.initialize(to: 0) }
    deinit { message.deallocate() }
}

private let errorSlots = ThreadLocal { ErrorSlot() }

private var errorSlot: ErrorSlot { errorSlots.value }

func setLastError(_ error: LayerKitError) {
    let slot = errorSlot
    let utf8 = Array(error.message.utf8)
    var n = min(utf8.count, ErrorSlot.capacity - 1)
    if n < utf8.count {
        while n > 0 && utf8[n] & 0xC0 == 0x80 { n -= 1 } // cut before a whole character
    }
    for i in 0..<n { slot.message[i] = CChar(bitPattern: utf8[i]) }
    slot.message[n] = 0
}

var lastErrorMessage: UnsafePointer<CChar> { UnsafePointer(errorSlot.message) }

// MARK: - Running calls

func status(_ s: Status) -> lk_status { lk_status(rawValue: UInt32(s.rawValue)) }

/// Runs a fallible call under the model lock (calls may come from any
/// thread): LK_OK, or the error's status with lk_last_error set.
@inline(__always)
func run(_ body: () throws -> Void) -> lk_status {
    do {
        try ModelLock.shared.withLock { try body() }
        return LK_OK
    } catch {
        let e = layerKitError(error)
        setLastError(e)
        return status(e.status)
    }
}

/// Closures here throw untyped (Swift does not infer typed throws for
/// closures); every error the core throws is a LayerKitError.
func layerKitError(_ error: any Error) -> LayerKitError {
    error as? LayerKitError ?? LayerKitError(.invalidArgument, "\(error)")
}

/// Runs a getter of a plain value: on failure the zero value, with lk_last_error set.
@inline(__always)
func read<T>(_ zero: T, _ body: () throws -> T) -> T {
    do {
        return try ModelLock.shared.withLock { try body() }
    } catch {
        setLastError(layerKitError(error))
        return zero
    }
}

/// Runs a call that returns a new object (+1), or NULL with lk_last_error set.
@inline(__always)
func create(_ body: () throws -> Object) -> OpaquePointer? {
    do {
        return OpaquePointer(HandleRegistry.shared.passRetained(try ModelLock.shared.withLock { try body() }))
    } catch {
        setLastError(layerKitError(error))
        return nil
    }
}

// MARK: - Handles

func object<T: Object>(_ handle: OpaquePointer?, _ argument: String, _ kind: ObjectKind, as: T.Type) throws(LayerKitError) -> T {
    guard let handle else { throw LayerKitError(.invalidArgument, "\(argument): NULL \(kind.rawValue)") }
    guard let found = HandleRegistry.shared.object(at: UnsafeRawPointer(handle)) else {
        throw LayerKitError(.invalidArgument, "\(argument): \(UnsafeRawPointer(handle)) is not a live LayerKit object (released already?)")
    }
    guard let typed = found as? T else {
        throw LayerKitError(.invalidArgument, "\(argument): is \(found.kind.withArticle), not \(kind.withArticle)")
    }
    return typed
}

func layer(_ handle: OpaquePointer?, _ argument: String = "layer") throws(LayerKitError) -> Layer {
    try object(handle, argument, .layer, as: Layer.self)
}

/// NULL is allowed and means none.
func optionalLayer(_ handle: OpaquePointer?, _ argument: String) throws(LayerKitError) -> Layer? {
    guard handle != nil else { return nil }
    return try layer(handle, argument)
}

func image(_ handle: OpaquePointer?, _ argument: String = "image") throws(LayerKitError) -> Image {
    try object(handle, argument, .image, as: Image.self)
}

func path(_ handle: OpaquePointer?, _ argument: String = "p") throws(LayerKitError) -> Path {
    try object(handle, argument, .path, as: Path.self)
}

func display(_ handle: OpaquePointer?, _ argument: String = "display") throws(LayerKitError) -> Display {
    try object(handle, argument, .display, as: Display.self)
}

/// A borrowed (+0) handle for an object the library holds.
func borrowed(_ object: Object?) -> OpaquePointer? {
    object.map { OpaquePointer(HandleRegistry.shared.expose($0)) }
}

func string(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws(LayerKitError) -> String {
    guard let pointer else { throw LayerKitError(.invalidArgument, "\(argument): NULL string") }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
}

/// The length of an array the program passes with a size_t count. Swift
/// sees size_t as Int, so a count past Int.max ((size_t)-1 from a bad
/// subtraction, say) arrives negative: refused, as is one past `limit`,
/// before anything is read (a negative count made a range that trapped).
func arrayCount(_ count: Int, _ argument: String, limit: Int = 1 << 20) throws(LayerKitError) -> Int {
    guard count >= 0, count <= limit else {
        throw LayerKitError(.invalidArgument, "\(argument): \(UInt(bitPattern: count)) is more than the \(limit) it may be")
    }
    return count
}

func finite(_ value: Double, _ argument: String) throws(LayerKitError) -> Double {
    guard value.isFinite else { throw LayerKitError(.invalidArgument, "\(argument): \(value) is not finite") }
    return value
}

// MARK: - Strings handed out

/// C strings given to the program live as long as the object (or until the
/// value they were read from changes): kept per object and key.
final class CStringCache: @unchecked Sendable {
    static let shared = CStringCache()
    private var strings: [UInt: [String: UnsafeMutablePointer<CChar>]] = [:]
    private var lock = pthread_mutex_t()

    init() { pthread_mutex_init(&lock, nil) }

    func pointer(for value: String, owner: Object, key: String) -> UnsafePointer<CChar> {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        let id = UInt(bitPattern: owner.handle)
        if let existing = strings[id]?[key], strcmp(existing, value) == 0 { return UnsafePointer(existing) }
        if let old = strings[id]?[key] { free(old) }
        if strings[id] == nil { owner.onDeinit { CStringCache.shared.forget(id) } }
        let copy = strdup(value)!
        strings[id, default: [:]][key] = copy
        return UnsafePointer(copy)
    }

    private func forget(_ id: UInt) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        strings.removeValue(forKey: id)?.values.forEach { free($0) }
    }
}
