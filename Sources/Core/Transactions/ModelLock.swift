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

    /// Takes the lock, unless `giveUp()` turns true while it waits (nil
    /// then). For the render thread: a delegate called under this lock may
    /// close the display, whose close waits for the render thread to end,
    /// and a render thread blocked here for the lock never did (a deadlock).
    func withLock<R>(unless giveUp: () -> Bool, _ body: () throws -> R) rethrows -> R? {
        var pause: UInt32 = 50   // microseconds, doubling up to 2 ms
        while pthread_mutex_trylock(&mutex) != 0 {
            if giveUp() { return nil }
            usleep(pause)
            pause = min(pause * 2, 2000)
        }
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
