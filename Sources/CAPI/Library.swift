import CLayerKit
import Glibc
import LayerKitCore

// Library-wide calls: version, errors, time, reference counting.

@c @implementation public func lk_version_string() -> UnsafePointer<CChar>? {
    versionString
}

nonisolated(unsafe) private let versionString: UnsafePointer<CChar> = UnsafePointer(strdupVersion())
private func strdupVersion() -> UnsafeMutablePointer<CChar> {
    "\(LK_VERSION_MAJOR).\(LK_VERSION_MINOR).\(LK_VERSION_MICRO)".withCString { strdup($0)! }
}

@c @implementation public func lk_abi_version() -> UInt32 {
    UInt32(LK_ABI_VERSION)
}

@c @implementation public func lk_last_error() -> UnsafePointer<CChar>? {
    lastErrorMessage
}

@c @implementation public func lk_media_time() -> Double {
    mediaTime()
}

@c @implementation public func lk_retain(_ object: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let object else { return nil }
    do {
        return try HandleRegistry.shared.retain(object).handle
    } catch {
        setLastError(error)
        return nil
    }
}

@c @implementation public func lk_release(_ object: UnsafeMutableRawPointer?) {
    guard let object else { return }
    do {
        try HandleRegistry.shared.release(object)
    } catch {
        setLastError(error)
    }
}
