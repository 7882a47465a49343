import CLayerKit
import Glibc

/// lk_display: a backend output showing one layer tree. With a manual clock
/// frames are drawn by renderFrame(at:) on the caller's thread; otherwise a
/// render thread draws them at the output's refresh rate (S5.2).
public final class Display: Object, @unchecked Sendable {
    public let backendName: String
    public let manualClock: Bool

    /// The output's size and refresh rate: as get_output said at open, and
    /// again after the backend reported RESIZED.
    private let output: Locked<(size: Size, refreshRate: Double)>
    /// What the backend's output events left: paused (draw nothing),
    /// get_output to be asked again, the next frame to be drawn whole.
    private let outputState = Locked<(paused: Bool, resizePending: Bool, redrawWhole: Bool)>((false, false, false))
    /// The program's event callback (lk_display_set_event_callback).
    private let eventHandler = Locked<DisplayEventHandler?>(nil)

    public var size: Size {
        if outputState.withLock({ $0.resizePending }) {
            pthread_mutex_lock(&backendMutex)
            if let backend, !closed { refreshOutput(backend) }
            pthread_mutex_unlock(&backendMutex)
        }
        return output.withLock { $0.size }
    }
    public var refreshRate: Double {
        _ = size   // a pending resize is read first
        return output.withLock { $0.refreshRate }
    }
    /// True between the backend's PAUSED and RESUMED.
    public var isPaused: Bool { outputState.withLock { $0.paused } }

    /// Guards the backend, the builder and the list: the render thread and
    /// the program's calls (read_pixels, close) never use them at once.
    private var backendMutex = pthread_mutex_t()
    private var backend: Backend?
    private var builder = DisplayListBuilder()
    /// The warning that a frame was truncated was written (once a display).
    private var warnedTruncation = false
    private var damage = DamageTracker()
    /// LAYERKIT_FULL_DAMAGE=1 redraws whole frames (to measure what damage saves).
    private static let fullDamage = getenv("LAYERKIT_FULL_DAMAGE").map { String(cString: $0) == "1" } ?? false
    /// Redraw whole frames on this display (benchmarks compare).
    public var forceFullDamage = false
    /// Allocated last in init: a raw allocation is not undone when init throws.
    private let list: UnsafeMutablePointer<lk_display_list>
    private var frameNumber: UInt64 = 0
    private var hasFrame = false
    private var closed = false

    /// The root as the program set it, and its id for the render side.
    public private(set) var root: Layer? {
        didSet { if oldValue !== root { ShownTrees.shared.hide(oldValue); ShownTrees.shared.show(root) } }
    }
    private let rootID = Locked<UInt64?>(nil)
    /// Display links attached to this display, until invalidated.
    private let links = Locked<[DisplayLink]>([])
    /// Images the core dropped, forgotten by the backend before the next frame.
    private let releasedImages = Locked<[UInt64]>([])
    private var renderLoop: RenderLoop?
    /// The render loop again, for the backend's presentation reports (which
    /// arrive on the backend's thread), and the time each frame was drawn for.
    private let pacing = Locked<(loop: RenderLoop?, frameTimes: [UInt64: Double])>((nil, [:]))
    private var commitObserver: UInt64?
    /// The runs of lk_display_run under way, innermost last, each with its
    /// thread's run loop (to wake it from any thread) and whether stop()
    /// ended it; and a stop() that found none, for the next run to take.
    private struct Runs {
        var active: [(id: Int, loop: RunLoop, stopped: Bool)] = []
        /// The run loops of lk_display_dispatch calls under way, which a
        /// close wakes as it wakes the runs.
        var dispatching: [(id: Int, loop: RunLoop)] = []
        var nextID = 0
        var stopWaiting = false
    }
    private let runs = Locked(Runs())

    private struct Statistics {
        var presented: UInt64 = 0
        var renderSeconds = 0.0
        var lastFrameTime = 0.0
        var lastDamagePixels = 0
        /// When the last frames were presented (media time), for pacing figures.
        var presentTimes: [Double] = []
    }
    private let statistics = Locked(Statistics())

    public var framesPresented: UInt64 { statistics.withLock { $0.presented } }
    public var framesMissed: UInt64 { renderLoop?.missed ?? 0 }
    public var renderSecondsTotal: Double { statistics.withLock { $0.renderSeconds } }
    /// The media time of the last frame drawn.
    public var lastFrameTime: Double { statistics.withLock { $0.lastFrameTime } }
    /// Layers whose kind content (shape, text, gradient) was rasterized, not reused.
    public var contentRasterizations: UInt64 {
        pthread_mutex_lock(&backendMutex)
        defer { pthread_mutex_unlock(&backendMutex) }
        return builder.rasterizations
    }
    /// Frames whose display list reached the builder's limits (part of the
    /// tree left out: DisplayListBuilder.maximumDrawOps and the others).
    public var framesTruncated: UInt64 {
        pthread_mutex_lock(&backendMutex)
        defer { pthread_mutex_unlock(&backendMutex) }
        return builder.truncations
    }
    /// Pixels the last frame redrew (its damage box).
    public var lastDamagePixels: Int { statistics.withLock { $0.lastDamagePixels } }
    /// Recording of when frames were presented (the last 4096), for benchmarks.
    public var presentTimes: [Double] { statistics.withLock { $0.presentTimes } }

    /// Opens the backend the options name, or the first that works under
    /// "auto" (S8.2). Failures say which plugin, where and why.
    public init(options: DisplayOptions) throws(LayerKitError) {
        try options.validate()
        let requested = options.resolvedBackend
        var opened: Backend?
        if requested == "auto" {
            var reasons: [String] = []
            // Headless GLES on a GL that rasterizes on the CPU (llvmpipe: no
            // GPU) draws turned layers 35-200 times slower than the software
            // backend: auto passes it by for a later one, and takes it when
            // none opens. (Named, "gles" opens it.)
            var passedBy: Backend?
            for name in PluginLoader.automaticOrder {
                do {
                    let backend = try Backend(plugin: try PluginLoader.load(name), options: options)
                    if name == "gles", let renderer = backend.glRenderer, Backend.isSoftwareRasterizer(renderer) {
                        passedBy = backend
                        reasons.append("backend \"gles\": its GL renders on the CPU (\(renderer)); the software backend is faster")
                        continue
                    }
                    opened = backend
                    break
                } catch {
                    reasons.append(error.message)
                }
            }
            if opened == nil, let passedBy {
                opened = passedBy
                reasons.append("so gles after all")
            } else {
                passedBy?.close()
            }
            guard opened != nil else {
                throw LayerKitError(.notFound, "backend \"auto\": no backend could be opened: " + reasons.joined(separator: "; "))
            }
            if !reasons.isEmpty {
                Backend.log(level: LK_BACKEND_LOG_INFO.rawValue,
                            message: "backend auto: using \(opened!.plugin.name) (\(reasons.joined(separator: "; ")))")
            }
        } else {
            opened = try Backend(plugin: try PluginLoader.load(requested), options: options)
        }
        let backend = opened!
        self.backend = backend
        backendName = backend.plugin.name
        output = Locked((Size(width: Double(backend.output.width), height: Double(backend.output.height)),
                         backend.output.refreshRate))
        manualClock = options.manualClock
        list = .allocate(capacity: 1)
        pthread_mutex_init(&backendMutex, nil)
        super.init(kind: .display)
        let stats = statistics
        let pacing = self.pacing
        backend.onFrameDone = { frame, presentation in
            let report = pacing.withLock { p -> (RenderLoop, Double)? in
                guard let time = p.frameTimes.removeValue(forKey: frame), let loop = p.loop else { return nil }
                return (loop, time)
            }
            if let (loop, time) = report { loop.presented(frameTime: time, at: presentation) }
            let now = mediaTime()
            stats.withLock { s in
                s.presented += 1
                if s.presentTimes.count == 4096 { s.presentTimes.removeFirst(1024) }
                s.presentTimes.append(now)
            }
        }
        backend.onOutputChanged = { [weak self] event, detail in self?.outputChanged(event, detail) }
        DisplayRegistry.shared.add(self)
        if !manualClock {
            let error = startRenderLoop()
            if error != 0 {
                close()
                throw LayerKitError(.backend, "display: the render thread could not start (pthread_create: \(String(cString: strerror(error))))")
            }
        }
    }

    deinit {
        close()
        list.deallocate()
    }

    /// 0, or pthread_create's error when the loop's thread could not start.
    private func startRenderLoop() -> Int32 {
        // The loop holds the display weakly: closing stops and joins it.
        let failures = RenderFailures()
        let loop = RenderLoop(refreshRate: output.withLock { $0.refreshRate }, draw: { [weak self] time in
            guard let self else { return .infinity }
            do throws(LayerKitError) {
                let next = try self.drawFrame(at: time)
                failures.count = 0
                return next
            } catch {
                // (closing: the frame under way finds the display closed)
                if self.isClosed { return .infinity }
                return failures.failed(error) ? -.infinity : .infinity
            }
        }, wantsFrames: { [weak self] in
            self?.links.withLock { $0.contains { $0.wantsFrames } } ?? false
        })
        renderLoop = loop
        pacing.withLock { $0.loop = loop }
        commitObserver = RenderTree.shared.addObserver { [weak loop] in loop?.wake() }
        return loop.start()
    }

    /// The render thread's failed frames in a row (only it touches them).
    /// A failed frame is retried at the next refresh, for a second of them;
    /// then the loop waits for the next change. It took an error for
    /// "nothing animates" and stopped at once, with no word: a running
    /// animation froze until the next commit.
    private final class RenderFailures {
        var count = 0
        static let retried = 60

        /// Whether to keep drawing after `error`; says so on stderr for the
        /// first failures and when it gives up.
        func failed(_ error: LayerKitError) -> Bool {
            count += 1
            if count <= 3 || count == RenderFailures.retried {
                let then = count == RenderFailures.retried
                    ? " (\(count) frames in a row: trying again at the next change)" : " (trying again at the next refresh)"
                writeToStandardError("layerkit: error: a frame was not drawn: \(error.message)\(then)\n")
            }
            return count < RenderFailures.retried
        }
    }

    // MARK: Output events

    /// The backend's output_changed: from any thread, possibly from inside
    /// render() on the render thread (so no backend lock is taken here).
    private func outputChanged(_ code: UInt32, _ detail: String?) {
        guard let event = DisplayEvent(rawValue: code) else {
            Backend.log(level: LK_BACKEND_LOG_WARNING.rawValue,
                        message: "backend \"\(backendName)\" reported an unknown output event \(code) (ignored)")
            return
        }
        let loop = pacing.withLock { $0.loop }
        switch event {
        case .paused:
            outputState.withLock { $0.paused = true }
            loop?.setPaused(true)
        case .resumed:
            outputState.withLock { $0.paused = false; $0.redrawWhole = true }
            loop?.setPaused(false)
        case .resized:
            outputState.withLock { $0.resizePending = true; $0.redrawWhole = true }
            loop?.wake()
        }
        guard let handler = eventHandler.withLock({ $0 }) else { return }
        // The program hears of it on its own run loop, never here.
        handler.runLoop.post { [weak self, weak handler] in
            guard let self, let handler, !self.isClosed, self.eventHandler.withLock({ $0 === handler }) else { return }
            handler.callback(self, event, detail)
        }
    }

    /// Asks the backend for its output again; the backend mutex is held.
    private func refreshOutput(_ backend: Backend) {
        guard outputState.withLock({ $0.resizePending }) else { return }
        outputState.withLock { $0.resizePending = false }
        guard backend.refreshOutput() else {
            Backend.log(level: LK_BACKEND_LOG_WARNING.rawValue,
                        message: "backend \"\(backendName)\" reported a resize but no usable output: keeping the last size")
            return
        }
        let o = backend.output
        output.withLock { $0 = (Size(width: Double(o.width), height: Double(o.height)), o.refreshRate) }
        pacing.withLock { $0.loop }?.setRefreshRate(o.refreshRate)
    }

    /// Replaces the program's event callback (nil removes it).
    public func setEventHandler(_ handler: DisplayEventHandler?) throws(LayerKitError) {
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        let old = eventHandler.withLock { h -> DisplayEventHandler? in let old = h; h = handler; return old }
        _ = old   // released here, outside the lock (its destroy runs)
    }

    private func withBackend<R>(_ body: (Backend) throws(LayerKitError) -> R) throws(LayerKitError) -> R {
        pthread_mutex_lock(&backendMutex)
        defer { pthread_mutex_unlock(&backendMutex) }
        guard let backend, !closed else { throw LayerKitError(.state, "display: the display is closed") }
        return try body(backend)
    }

    public var isClosed: Bool {
        pthread_mutex_lock(&backendMutex)
        defer { pthread_mutex_unlock(&backendMutex) }
        return closed
    }

    public func setRoot(_ layer: Layer?) throws(LayerKitError) {
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        if layer?.isPresentationCopy == true {
            // (never committed: the display drew nothing)
            throw LayerKitError(.state, "root: a presentation layer is a read-only copy; show its model layer")
        }
        // A layer is in one tree (S1.3): a sublayer shown as a root too was
        // drawn twice under two timings, a mask as an ordinary layer.
        if layer?.superlayer != nil {
            throw LayerKitError(.hierarchy, "root: the layer is a sublayer of another layer; remove it from its superlayer first")
        }
        if layer?.maskOwner != nil {
            throw LayerKitError(.hierarchy, "root: the layer is another layer's mask; a mask is drawn only as its layer's mask")
        }
        root = layer
        rootID.withLock { $0 = layer?.id }
        // A layer is committed with a change of its own: a new root that
        // had none (created and shown as it is) was never drawn, had no
        // presentation and did not animate its first change (S3.3, S5.1).
        layer?.changed()
        renderLoop?.wake()
    }

    /// Renders the committed tree with its animations at `time` and
    /// presents it. The calling thread's implicit transaction is committed
    /// first, as a run loop iteration would (S2.2).
    public func renderFrame(at time: Double) throws(LayerKitError) {
        guard time.isFinite else { throw .invalid("media_time: \(time) is not finite") }
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        // A frame at a time of the program's on a display whose render
        // thread draws at the real time ended its animations early (a frame
        // 60 s ahead finished a 10 s animation) and sent its display links
        // back in time.
        guard manualClock else {
            throw LayerKitError(.state, "display: it draws on its own render thread (opened without manual_clock); lk_display_render_frame_at is for displays with a manual clock")
        }
        ModelLock.shared.withLock { Transaction.flush() }
        _ = try drawFrame(at: time)
    }

    /// Draws and presents the frame for `time`; returns the media time at
    /// which its animations next want a frame (DisplayListBuilder.nextFrameTime).
    private func drawFrame(at time: Double) throws(LayerKitError) -> Double {
        var events: [AnimationEvaluator.Event] = []
        var nextFrame = Double.infinity
        var drawn = true
        // A tiled layer's missing tiles (S7.8) are drawn between two builds,
        // outside every lock but the model's (their delegate may call in).
        for pass in 0..<2 {
            guard let (needs, frame) = try present(at: time, events: &events, nextFrame: &nextFrame, drawn: &drawn,
                                                   drawingTiles: pass == 0) else { break }
            for need in needs { _ = TileStore.draw(need, frame: frame, giveUp: { self.isClosed }) }
            // Changes the tile delegates made on the render thread commit
            // now: it runs no run loop, so its implicit transaction stayed
            // open for good (S2.2). (With a manual clock they are the
            // caller's, committed by its own loop.)
            if !manualClock && !needs.isEmpty {
                _ = ModelLock.shared.withLock(unless: { self.isClosed }) { Transaction.flush() }
            }
        }
        guard drawn else { return .infinity }
        let live = links.withLock { list -> [DisplayLink] in
            list.removeAll { $0.isInvalidated }
            return list
        }
        let rate = output.withLock { $0.refreshRate }
        for link in live { link.frameDisplayed(timestamp: time, target: time + 1 / rate) }
        return nextFrame
    }

    /// Builds the list for `time` and presents it; or, when `drawingTiles`
    /// and tiles are missing, returns them (and the build's tile frame)
    /// without presenting. While the output is paused nothing is drawn
    /// (`drawn` false; the tree is kept).
    private func present(at time: Double, events: inout [AnimationEvaluator.Event], nextFrame: inout Double,
                         drawn: inout Bool, drawingTiles: Bool) throws(LayerKitError) -> ([TileStore.Need], UInt64)? {
        try withBackend { (backend) throws(LayerKitError) -> ([TileStore.Need], UInt64)? in
            refreshOutput(backend)
            guard !outputState.withLock({ $0.paused }) else {
                drawn = false
                return nil
            }
            let size = output.withLock { $0.size }
            for id in releasedImages.withLock({ q -> [UInt64] in let ids = q; q.removeAll(); return ids }) {
                backend.imageReleased(id)
            }
            let start = mediaTime()
            let id = rootID.withLock { $0 }
            builder.viewport = ScreenBox(x0: 0, y0: 0, x1: size.width, y1: size.height)
            RenderTree.shared.withLock {
                builder.build(root: id.flatMap { RenderTree.shared.node($0) }, at: time, events: &events)
                // Posted before the lock is let go (S4.6): a removal marks
                // its record stopped under this lock, and posts its stop
                // after; posted after the frame was drawn, a start could
                // come after the stop of an animation removed meanwhile.
                AnimationEvents.deliver(events)
                events.removeAll()
            }
            nextFrame = builder.nextFrameTime
            if builder.truncated && !warnedTruncation {
                warnedTruncation = true
                writeToStandardError("layerkit: warning: a frame reached the display list's limits (\(DisplayListBuilder.maximumDrawOps) drawing ops, \(DisplayListBuilder.maximumWork) layers visited and particles listed, \(DisplayListBuilder.maximumSpaceItems) layers in one 3D space): the rest of the tree is left out of it (replicators in replicators multiply their instance counts; lk_display_stats counts such frames)\n")
            }
            if drawingTiles && !builder.tileNeeds.isEmpty { return (builder.tileNeeds, builder.tileFrame) }
            var box = damage.damage(ops: builder.opsPointer, count: builder.count, images: builder.currentImages,
                                    width: Int(size.width), height: Int(size.height), runs: builder.variableRuns)
            let whole = outputState.withLock { s -> Bool in let w = s.redrawWhole; s.redrawWhole = false; return w }
            if Display.fullDamage || forceFullDamage || !hasFrame || whole {
                box = lk_dl_box(x: 0, y: 0, width: Int32(size.width), height: Int32(size.height))
            }
            statistics.withLock { $0.lastDamagePixels = Int(box.width) * Int(box.height); $0.lastFrameTime = time }
            // An unchanged frame draws nothing; the output still shows it, so
            // it counts as presented.
            guard box.width > 0 && box.height > 0 else {
                statistics.withLock { $0.presented += 1 }
                return nil
            }
            frameNumber += 1
            if renderLoop != nil {
                let number = frameNumber
                pacing.withLock { p in
                    if p.frameTimes.count > 64 { p.frameTimes.removeAll() }   // reports that never came
                    p.frameTimes[number] = time
                }
            }
            list.initialize(to: lk_display_list(
                abi_version: LK_BACKEND_ABI_VERSION,
                struct_size: UInt32(MemoryLayout<lk_display_list>.size),
                op_size: UInt32(MemoryLayout<lk_dl_op>.size),
                op_count: UInt32(builder.count),
                ops: builder.opsPointer,
                clear_color: lk_dl_color(r: 0, g: 0, b: 0, a: 1),
                damage: box,
                target_time: time,
                frame_number: frameNumber))
            do throws(LayerKitError) {
                try backend.render(list)
            } catch {
                // The list never showed, yet the damage tracker took it for
                // the last one: the next frame is drawn whole (a retry with
                // nothing new drew nothing, later damage left its change out).
                outputState.withLock { $0.redrawWhole = true }
                throw error
            }
            hasFrame = true
            let elapsed = mediaTime() - start
            statistics.withLock { $0.renderSeconds += elapsed }
            return nil
        }
    }

    /// The last frame as RGBA8 straight alpha.
    public func readPixels(into destination: UnsafeMutableRawPointer, stride: Int) throws(LayerKitError) {
        let width = Int(size.width), height = Int(size.height)
        guard stride >= width * 4 else {
            throw .invalid("stride: \(UInt(bitPattern: stride)) bytes is less than width * 4 = \(width * 4)")
        }
        let premultiplied = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { premultiplied.deallocate() }
        try withBackend { (backend) throws(LayerKitError) in
            guard hasFrame else { throw LayerKitError(.state, "display: no frame has been rendered yet") }
            try backend.readPixels(into: premultiplied, stride: width * 4)
        }
        PixelConversion.premultipliedToRGBA(width: width, height: height, source: premultiplied,
                                            sourceStride: width * 4, into: destination, destinationStride: stride)
    }

    public func writePNG(to file: String) throws(LayerKitError) {
        let width = Int(size.width), height = Int(size.height)
        let rgba = try PixelStorage.allocate(words: width * height, for: "display")
        defer { PixelStorage.free(rgba) }
        try readPixels(into: rgba, stride: width * 4)
        try PNG.write(file: file, width: width, height: height, rgba: rgba, stride: width * 4)
    }

    public func addLink(_ link: DisplayLink) throws(LayerKitError) {
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        links.withLock { $0.append(link) }
        link.addWaker { [weak self] in self?.renderLoop?.wake() }
        renderLoop?.wake()
    }

    /// Stops the render thread, closes the output and lets go of the root. Idempotent.
    public func close() {
        pthread_mutex_lock(&backendMutex)
        let wasClosed = closed
        closed = true
        pthread_mutex_unlock(&backendMutex)
        guard !wasClosed else { return }
        if let token = commitObserver { RenderTree.shared.removeObserver(token) }
        renderLoop?.stop()
        renderLoop = nil
        pacing.withLock { $0 = (nil, [:]) }
        DisplayRegistry.shared.remove(self)
        pthread_mutex_lock(&backendMutex)
        backend?.close()
        backend = nil
        pthread_mutex_unlock(&backendMutex)
        root = nil
        rootID.withLock { $0 = nil }
        for link in links.withLock({ l -> [DisplayLink] in let all = l; l.removeAll(); return all }) { link.displayClosed() }
        // Runs of lk_display_run on other threads return now, with the
        // closed display's error (they waited for something else to post).
        for loop in runs.withLock({ $0.active.map(\.loop) + $0.dispatching.map(\.loop) }) { loop.post {} }
        let handler = eventHandler.withLock { h -> DisplayEventHandler? in let old = h; h = nil; return old }
        _ = handler   // its destroy runs as it is released here
    }

    func imageReleased(_ id: UInt64) {
        releasedImages.withLock { $0.append(id) }
    }

    // MARK: Run loop (S2.2)

    /// One iteration of the calling thread's run loop.
    /// A close from another thread ends the wait at once (LK_ERROR_STATE),
    /// as it ends a run: the loop is listed for close() to wake, and a close
    /// that came before the listing is seen by the check after it.
    public func dispatch(timeout: Double) throws(LayerKitError) {
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        let loop = RunLoop.current
        let id = runs.withLock { r -> Int in
            r.nextID += 1
            r.dispatching.append((r.nextID, loop))
            return r.nextID
        }
        defer { runs.withLock { $0.dispatching.removeAll { $0.id == id } } }
        guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        loop.runOnce(timeout: timeout)
        guard !isClosed else { throw LayerKitError(.state, "display: the display was closed while dispatching") }
    }

    /// Iterates the calling thread's run loop until stop(), as
    /// CFRunLoopRun does: a stop that came while no run was under way ends
    /// the next one at once.
    public func run() throws(LayerKitError) {
        let loop = RunLoop.current
        guard let id = runs.withLock({ r -> Int? in
            if r.stopWaiting {
                r.stopWaiting = false
                return nil
            }
            r.nextID += 1
            r.active.append((r.nextID, loop, false))
            return r.nextID
        }) else { return }
        defer { runs.withLock { $0.active.removeAll { $0.id == id } } }
        while !runs.withLock({ r in r.active.contains { $0.id == id && $0.stopped } }) {
            guard !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
            loop.runOnce(timeout: -1)
        }
    }

    /// Makes run() return after the current iteration; callable from any
    /// thread. Ends the innermost run on each thread running this display
    /// (a nested run returns to the one around it, as CFRunLoopStop does);
    /// with none under way, the next run.
    public func stop() {
        let woken = runs.withLock { r -> [RunLoop] in
            guard !r.active.isEmpty else {
                r.stopWaiting = true
                return []
            }
            var seen: [ObjectIdentifier] = []
            for i in r.active.indices.reversed() where !seen.contains(ObjectIdentifier(r.active[i].loop)) {
                seen.append(ObjectIdentifier(r.active[i].loop))
                r.active[i].stopped = true
            }
            return r.active.map(\.loop)
        }
        for loop in woken { loop.post {} }
    }
}
