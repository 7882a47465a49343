import Glibc

/// One lock for the model tree: layers may be changed from any thread
/// (each thread with its own transactions), one call at a time. Recursive,
/// because delegates called while it is held may call back in. The render
/// side never takes it: it works on its own copy (RenderTree).
public final class ModelLock: @unchecked Sendable {
    public static let shared = ModelLock()
    private var mutex = pthread_mutex_t()

    private init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(&mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    @inline(__always)
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
