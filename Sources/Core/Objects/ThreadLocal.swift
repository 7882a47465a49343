import Glibc

/// One instance per thread, made on first use and released when the thread
/// ends: each thread's transactions, run loop and last error.
public final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    private var key = pthread_key_t()
    private let make: () -> Value

    public init(_ make: @escaping () -> Value) {
        self.make = make
        pthread_key_create(&key) { object in
            if let object { Unmanaged<AnyObject>.fromOpaque(object).release() }
        }
    }

    public var value: Value {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = make()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }
}
