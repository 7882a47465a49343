import CLayerKit
import LayerKitCore

// The run loop and display links (S2.2, S5.3). Dispatching does not hold
// the model lock: callbacks run as on any other call from the program.

@c @implementation public func lk_display_get_fd(_ d: OpaquePointer?) -> Int32 {
    read(-1) {
        _ = try display(d)
        return RunLoop.current.fd
    }
}

@c @implementation public func lk_display_dispatch(_ d: OpaquePointer?, _ timeoutMs: Int32) -> lk_status {
    do {
        let target = try ModelLock.shared.withLock { try display(d) }
        guard timeoutMs >= -1 else {
            throw LayerKitError(.invalidArgument, "timeout_ms: \(timeoutMs) is not a wait (0 or more milliseconds, or -1 for no limit)")
        }
        try target.dispatch(timeout: timeoutMs < 0 ? -1 : Double(timeoutMs) / 1000)
        return LK_OK
    } catch {
        let e = layerKitError(error)
        setLastError(e)
        return status(e.status)
    }
}

@c @implementation public func lk_display_run(_ d: OpaquePointer?) -> lk_status {
    do {
        let target = try ModelLock.shared.withLock { try display(d) }
        try target.run()
        return LK_OK
    } catch {
        let e = layerKitError(error)
        setLastError(e)
        return status(e.status)
    }
}

@c @implementation public func lk_display_stop(_ d: OpaquePointer?) {
    guard let target = try? ModelLock.shared.withLock({ try display(d) }) else {
        setLastError(LayerKitError(.invalidArgument, "display: not a live display"))
        return
    }
    target.stop()
}

@c @implementation public func lk_display_link_create(
    _ d: OpaquePointer?,
    _ callback: (@convention(c) (OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) -> Void)?,
    _ userData: UnsafeMutableRawPointer?) -> OpaquePointer? {
    create {
        let target = try display(d)
        guard let callback else { throw LayerKitError(.invalidArgument, "callback: NULL function") }
        let box = UserData(userData)
        let link = DisplayLink { link, timestamp, targetTime in
            callback(borrowed(link), timestamp, targetTime, box.pointer)
        }
        try target.addLink(link)
        return link
    }
}

func displayLink(_ handle: OpaquePointer?) throws -> DisplayLink {
    try object(handle, "link", .displayLink, as: DisplayLink.self)
}

@c @implementation public func lk_display_link_set_paused(_ l: OpaquePointer?, _ paused: Bool) -> lk_status {
    run { try displayLink(l).setPaused(paused) }
}

@c @implementation public func lk_display_link_set_preferred_fps(_ l: OpaquePointer?, _ fps: Double) -> lk_status {
    run { try displayLink(l).setPreferredFramesPerSecond(fps) }
}

@c @implementation public func lk_display_link_invalidate(_ l: OpaquePointer?) {
    _ = run { try displayLink(l).invalidate() }
}
