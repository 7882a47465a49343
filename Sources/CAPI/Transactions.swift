import CLayerKit
import LayerKitCore

// Transactions (S2).

@c @implementation public func lk_transaction_begin() {
    ModelLock.shared.withLock { Transaction.begin() }
}

@c @implementation public func lk_transaction_commit() -> lk_status {
    run { try Transaction.commit() }
}

@c @implementation public func lk_transaction_flush() {
    ModelLock.shared.withLock { Transaction.flush() }
}

@c @implementation public func lk_transaction_set_animation_duration(_ seconds: Double) {
    _ = run {
        guard seconds.isFinite, seconds >= 0 else {
            throw LayerKitError(.invalidArgument, "seconds: must be a finite duration >= 0 (got \(seconds))")
        }
        Transaction.animationDuration = seconds
    }
}

@c @implementation public func lk_transaction_get_animation_duration() -> Double {
    read(0.25) { Transaction.animationDuration }
}

@c @implementation public func lk_transaction_set_animation_timing_function(_ fn: OpaquePointer?) {
    _ = run {
        Transaction.animationTimingFunction = fn == nil ? nil : try timingFunction(fn, "fn")
    }
}

@c @implementation public func lk_transaction_get_animation_timing_function() -> OpaquePointer? {
    read(nil) { borrowed(Transaction.animationTimingFunction) }
}

@c @implementation public func lk_transaction_set_disable_actions(_ disable: Bool) {
    ModelLock.shared.withLock { Transaction.disableActions = disable }
}

@c @implementation public func lk_transaction_get_disable_actions() -> Bool {
    read(false) { Transaction.disableActions }
}

@c @implementation public func lk_transaction_set_completion(_ fn: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
                                                            _ userData: UnsafeMutableRawPointer?) {
    let box = UserData(userData)
    ModelLock.shared.withLock {
        Transaction.setCompletion(fn.map { call in { call(box.pointer) } })
    }
}

@c @implementation public func lk_transaction_set_value(_ key: UnsafePointer<CChar>?, _ v: lk_value) -> lk_status {
    run { try Transaction.setValue(try value(from: v, "value"), forKey: try string(key, "key")) }
}

@c @implementation public func lk_transaction_get_value(_ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    run {
        let name = try string(key, "key")
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        guard let stored = try Transaction.value(forKey: name) else {
            out.pointee = lk_value()
            throw LayerKitError(.notFound, "key: no value \"\(name)\" in the current transactions")
        }
        out.pointee = cValue(stored, owner: TransactionStrings.owner, key: "transaction:" + name)
    }
}

/// Owns the C strings handed out for transaction values.
enum TransactionStrings {
    static let owner: Object = Path()
}

/// A program's user_data pointer, carried into closures.
final class UserData: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}
