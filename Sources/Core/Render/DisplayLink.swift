/// A display link (S5.3): the program's callback, on the run loop of the
/// thread that created it, once per displayed frame.
///
/// At most one callback waits on the run loop at a time, with the latest
/// frame's times: a thread that does not dispatch for a while gets one call
/// when it does, not one per frame missed (CADisplayLink skips frames for a
/// busy thread; queued, they grew the queue by 60 closures a second and came
/// as a burst). Pausing or invalidating also drops the one waiting.
public final class DisplayLink: Object, @unchecked Sendable {
    private struct Settings {
        var paused = false
        var fps = 0.0
        var lastFired: Double?
        var invalidated = false
        /// The times of the call waiting on the run loop, if one waits.
        var waiting: (timestamp: Double, target: Double)?
        /// The run loop's number for that call (RunLoop.withdraw).
        var posted: UInt64?

        /// Drops the call waiting, if one does: its run loop number, to withdraw.
        mutating func dropWaiting() -> UInt64? {
            waiting = nil
            defer { posted = nil }
            return posted
        }
    }
    private let settings = Locked(Settings())
    private let runLoop: RunLoop
    private let callback: (DisplayLink, Double, Double) -> Void
    /// Wakes the render threads of the displays it is on (a sleeping one
    /// draws again when the link is resumed).
    private let wakers = Locked<[() -> Void]>([])

    public init(callback: @escaping (DisplayLink, Double, Double) -> Void) {
        runLoop = RunLoop.current
        self.callback = callback
        super.init(kind: .displayLink)
    }

    func addWaker(_ wake: @escaping () -> Void) { wakers.withLock { $0.append(wake) } }

    public func setPaused(_ paused: Bool) {
        let dropped = settings.withLock { s -> UInt64? in
            s.paused = paused
            return paused ? s.dropWaiting() : nil
        }
        if let dropped { runLoop.withdraw(dropped) }
        if !paused { for wake in wakers.withLock({ $0 }) { wake() } }
    }

    public func setPreferredFramesPerSecond(_ fps: Double) throws(LayerKitError) {
        guard fps.isFinite, fps >= 0 else {
            throw LayerKitError(.invalidArgument, "fps: must be 0 (the display's rate) or a positive rate (got \(fps))")
        }
        settings.withLock { $0.fps = fps }
    }

    public func invalidate() {
        let dropped = settings.withLock { s -> UInt64? in
            s.invalidated = true
            return s.dropWaiting()
        }
        if let dropped { runLoop.withdraw(dropped) }
    }
    public var isInvalidated: Bool { settings.withLock { $0.invalidated } }

    /// The display it was on closed: a call waiting for its last frame is
    /// not made.
    func displayClosed() {
        if let dropped = settings.withLock({ $0.dropWaiting() }) { runLoop.withdraw(dropped) }
    }

    /// Whether it asks for frames: not paused, not invalidated, and its
    /// thread still there to take the calls (a render thread kept drawing
    /// at 60 Hz for a paused link, or one whose thread had ended).
    var wantsFrames: Bool {
        !runLoop.hasEnded && settings.withLock { !$0.paused && !$0.invalidated }
    }

    /// Frames of `period` seconds between calls for a preferred rate: the
    /// whole number of frames whose rate is nearest it (a tie takes the
    /// faster), so the calls come at an even pace (S5.3; CADisplayLink's
    /// actual rate is a factor of the display's). 0 or a rate above the
    /// display's: every frame.
    static func framesPerCall(fps: Double, period: Double) -> Int {
        guard fps > 0, period > 0, fps * period < 1 else { return 1 }
        // (at most 2^31 frames a call, over a year at 60 Hz: a rate of
        // 1e-18 put the count past Int.max, and converting it trapped)
        let ratio = (1 / (fps * period)).rounded(.down)
        let n = ratio >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(ratio))
        let slower = 1 / (Double(n + 1) * period), faster = 1 / (Double(n) * period)
        // (a tie within a millionth: frame times near 1e5 s put the rates
        // off by more than a fixed 1e-9, and 45 on 60 Hz took 30)
        return abs(slower - fps) < abs(faster - fps) - 1e-6 * fps ? n + 1 : n
    }

    /// A frame was displayed at `timestamp`; the next is due at `target`.
    /// Called by the render side from any thread.
    func frameDisplayed(timestamp: Double, target: Double) {
        let period = target - timestamp
        settings.withLock { s in
            guard !s.paused, !s.invalidated else { return }
            let frames = DisplayLink.framesPerCall(fps: s.fps, period: period)
            // Half a frame of slack absorbs jitter in the frames' times. A
            // frame before the last call (a manual clock set back) calls
            // and paces on from there (it waited until time passed the
            // old call again).
            if frames > 1, let last = s.lastFired, timestamp >= last,
               timestamp - last < (Double(frames) - 0.5) * period { return }
            s.lastFired = timestamp
            let alreadyWaiting = s.waiting != nil
            s.waiting = (timestamp, timestamp + Double(frames) * period)
            guard !alreadyWaiting else { return }
            // Posted under the lock, so that the number kept is this call's
            // (the run loop's lock is taken inside ours, never the other way).
            s.posted = runLoop.post { [self] in
                // The latest frame's times, unless paused or invalidated since.
                guard let (timestamp, target) = settings.withLock({ s -> (Double, Double)? in
                    let w = s.waiting
                    s.waiting = nil
                    s.posted = nil
                    return s.paused || s.invalidated ? nil : w
                }) else { return }
                callback(self, timestamp, target)
            }
        }
    }
}
