import CLayerKit
import Glibc

/// lk_display: a backend output showing one layer tree.
public final class Display: Object, @unchecked Sendable {
    public let backendName: String
    public let size: Size
    public let refreshRate: Double
    public let manualClock: Bool
    public private(set) var root: Layer?
    public private(set) var isClosed = false

    private var backend: Backend?
    private var builder = DisplayListBuilder()
    /// Allocated last in init: a raw allocation is not undone when init throws.
    private let list: UnsafeMutablePointer<lk_display_list>
    private var frameNumber: UInt64 = 0
    private var hasFrame = false

    /// Display links attached to this display, until invalidated.
    private let links = Locked<[DisplayLink]>([])
    /// Set by stop(); lk_display_run returns when it sees it.
    private let stopRequested = Locked(false)

    public private(set) var framesPresented: UInt64 = 0
    public private(set) var framesMissed: UInt64 = 0
    public private(set) var renderSecondsTotal = 0.0

    /// Opens the backend the options name, or the first that works under
    /// "auto" (S8.2). Failures say which plugin, where and why.
    public init(options: DisplayOptions) throws(LayerKitError) {
        try options.validate()
        let requested = options.resolvedBackend
        var opened: Backend?
        if requested == "auto" {
            var reasons: [String] = []
            for name in PluginLoader.automaticOrder {
                do {
                    opened = try Backend(plugin: try PluginLoader.load(name), options: options)
                    break
                } catch {
                    reasons.append(error.message)
                }
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
        size = Size(width: Double(backend.output.width), height: Double(backend.output.height))
        refreshRate = backend.output.refreshRate
        manualClock = options.manualClock
        list = .allocate(capacity: 1)
        super.init(kind: .display)
        backend.onFrameDone = { [unowned self] _, _ in self.framesPresented += 1 }
        DisplayRegistry.shared.add(self)
    }

    deinit {
        close()
        list.deallocate()
    }

    private func openBackend() throws(LayerKitError) -> Backend {
        guard let backend, !isClosed else { throw LayerKitError(.state, "display: the display is closed") }
        return backend
    }

    public func setRoot(_ layer: Layer?) throws(LayerKitError) {
        _ = try openBackend()
        root = layer
    }

    /// Renders the committed tree with its animations at `time` and
    /// presents it. The calling thread's implicit transaction is committed
    /// first, as a run loop iteration would (S2.2).
    public func renderFrame(at time: Double) throws(LayerKitError) {
        guard time.isFinite else { throw .invalid("media_time: \(time) is not finite") }
        let backend = try openBackend()
        ModelLock.shared.withLock { Transaction.flush() }
        let start = mediaTime()
        var events: [AnimationEvaluator.Event] = []
        let rootID = root?.id
        RenderTree.shared.withLock {
            builder.build(root: rootID.flatMap { RenderTree.shared.node($0) }, at: time, events: &events)
        }
        frameNumber += 1
        list.initialize(to: lk_display_list(
            abi_version: LK_BACKEND_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<lk_display_list>.size),
            op_size: UInt32(MemoryLayout<lk_dl_op>.size),
            op_count: UInt32(builder.count),
            ops: builder.opsPointer,
            clear_color: lk_dl_color(r: 0, g: 0, b: 0, a: 1),
            damage: lk_dl_box(x: 0, y: 0, width: Int32(size.width), height: Int32(size.height)),
            target_time: time,
            frame_number: frameNumber))
        try backend.render(list)
        hasFrame = true
        renderSecondsTotal += mediaTime() - start
        AnimationEvents.deliver(events)
        let live = links.withLock { list -> [DisplayLink] in
            list.removeAll { $0.isInvalidated }
            return list
        }
        for link in live { link.frameDisplayed(timestamp: time, target: time + 1 / refreshRate) }
    }

    public func addLink(_ link: DisplayLink) throws(LayerKitError) {
        _ = try openBackend()
        links.withLock { $0.append(link) }
    }

    // MARK: Run loop (S2.2)

    /// One iteration of the calling thread's run loop.
    public func dispatch(timeout: Double) throws(LayerKitError) {
        _ = try openBackend()
        RunLoop.current.runOnce(timeout: timeout)
    }

    /// Iterates the calling thread's run loop until stop().
    public func run() throws(LayerKitError) {
        stopRequested.withLock { $0 = false }
        let loop = RunLoop.current
        runLoopToWake.withLock { $0 = loop }
        defer { runLoopToWake.withLock { $0 = nil } }
        while !stopRequested.withLock({ $0 }) {
            _ = try openBackend()
            RunLoop.current.runOnce(timeout: -1)
        }
    }

    /// Makes run() return after the current iteration; callable from any thread.
    public func stop() {
        stopRequested.withLock { $0 = true }
        RunLoop.current.post {}
        runLoopToWake.withLock { $0?.post {} }
    }

    /// The run loop of the thread inside run(), to wake it from another thread.
    private let runLoopToWake = Locked<RunLoop?>(nil)

    /// The last frame as RGBA8 straight alpha.
    public func readPixels(into destination: UnsafeMutableRawPointer, stride: Int) throws(LayerKitError) {
        let backend = try openBackend()
        let width = Int(size.width), height = Int(size.height)
        guard stride >= width * 4 else {
            throw .invalid("stride: \(stride) bytes is less than width * 4 = \(width * 4)")
        }
        guard hasFrame else { throw LayerKitError(.state, "display: no frame has been rendered yet") }
        let premultiplied = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { premultiplied.deallocate() }
        try backend.readPixels(into: premultiplied, stride: width * 4)
        PixelConversion.premultipliedToRGBA(width: width, height: height, source: premultiplied,
                                            sourceStride: width * 4, into: destination, destinationStride: stride)
    }

    public func writePNG(to file: String) throws(LayerKitError) {
        let width = Int(size.width), height = Int(size.height)
        let rgba = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { rgba.deallocate() }
        try readPixels(into: rgba, stride: width * 4)
        try PNG.write(file: file, width: width, height: height, rgba: rgba, stride: width * 4)
    }

    /// Closes the output and lets go of the root. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        DisplayRegistry.shared.remove(self)
        backend?.close()
        backend = nil
        root = nil
    }

    func imageReleased(_ id: UInt64) {
        guard !isClosed else { return }
        backend?.imageReleased(id)
    }
}
