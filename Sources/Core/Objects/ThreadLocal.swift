import Glibc

/// One instance per thread, made on first use and released when the thread
/// ends: each thread's transactions, run loop and last error.
public final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private var key = pthread_key_t()
    private let make: () -> Value

    public init(_ make: @escaping () -> Value) {
        self.make = make
        pthread_key_create(&key) { object in
            guard let object else { return }
            threadLocalObjects.withLock { _ = $0.remove(object) }
            let value = Unmanaged<AnyObject>.fromOpaque(object)
            (value.takeUnretainedValue() as? ThreadEndObserver)?.threadEnded()
            value.release()
        }
    }

    public var value: Value {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = make()
        let object = Unmanaged.passRetained(created).toOpaque()
        threadLocalObjects.withLock { _ = $0.insert(object) }
        pthread_setspecific(key, object)
        return created
    }
}

/// A thread-local value told that its thread ended, before it is released
/// (others may still hold it).
public protocol ThreadEndObserver: AnyObject {
    func threadEnded()
}

/// Every thread's objects, also held from here: the main thread's
/// thread-specific values are never destroyed (exit() runs no destructors
/// for it) and live where leak checkers do not look, so without this what
/// they hold at exit (run loop work never dispatched, say) would be
/// reported as lost rather than still in use.
private let threadLocalObjects = Locked<Set<UnsafeMutableRawPointer>>([])
