/// A display link (S5.3): the program's callback, on the run loop of the
/// thread that created it, once per displayed frame.
public final class DisplayLink: Object, @unchecked Sendable {
    private struct Settings { var paused = false; var fps = 0.0; var lastFired: Double?; var invalidated = false }
    private let settings = Locked(Settings())
    private let runLoop: RunLoop
    private let callback: (DisplayLink, Double, Double) -> Void

    public init(callback: @escaping (DisplayLink, Double, Double) -> Void) {
        runLoop = RunLoop.current
        self.callback = callback
        super.init(kind: .displayLink)
    }

    public func setPaused(_ paused: Bool) { settings.withLock { $0.paused = paused } }

    public func setPreferredFramesPerSecond(_ fps: Double) throws(LayerKitError) {
        guard fps.isFinite, fps >= 0 else {
            throw LayerKitError(.invalidArgument, "fps: must be 0 (the display's rate) or a positive rate (got \(fps))")
        }
        settings.withLock { $0.fps = fps }
    }

    public func invalidate() { settings.withLock { $0.invalidated = true } }
    public var isInvalidated: Bool { settings.withLock { $0.invalidated } }

    /// A frame was displayed at `timestamp`; the next is due at `target`.
    /// Called by the render side from any thread.
    func frameDisplayed(timestamp: Double, target: Double) {
        let fire = settings.withLock { s -> Bool in
            guard !s.paused, !s.invalidated else { return false }
            // A preferred rate skips frames; half a frame of slack absorbs jitter.
            if s.fps > 0, let last = s.lastFired, timestamp - last < 1 / s.fps - 0.5 * (target - timestamp) {
                return false
            }
            s.lastFired = timestamp
            return true
        }
        guard fire else { return }
        runLoop.post { [self] in
            guard !isInvalidated else { return }
            callback(self, timestamp, target)
        }
    }
}
