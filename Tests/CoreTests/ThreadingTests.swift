import Glibc
import Testing
@testable import LayerKitCore

/// Issue 3 part 8: layers changed from several threads while a render
/// thread draws. Run under ThreadSanitizer by `make tsan`
/// (swift test --sanitize=thread); it must be clean.
@Suite struct ThreadingTests {
    /// The software backend built next to the tests ($LKTEST_SWIFT_PLUGIN_DIR,
    /// which the test runner sets, else the package's usual build folders).
    private static func pluginDirectory() -> String? {
        if let dir = getenv("LKTEST_SWIFT_PLUGIN_DIR") { return String(cString: dir) }
        var dir = #filePath
        for _ in 0..<3 { dir = String(dir[..<dir.lastIndex(of: "/")!]) }
        for candidate in [".build-test/debug", ".build/debug"] {
            let path = "\(dir)/\(candidate)"
            if access("\(path)/liblayerkit-software.so", F_OK) == 0 { return path }
        }
        return nil
    }

    @Test func changesFromManyThreadsWhileTheRenderThreadDraws() throws {
        let plugins = try #require(ThreadingTests.pluginDirectory(), "the software backend is not built beside the tests")
        setenv("LAYERKIT_PLUGIN_PATH", plugins, 1)
        var options = DisplayOptions()
        options.backend = "software"
        options.width = 128
        options.height = 128
        let display = try Display(options: options)
        defer { display.close() }
        let root = Layer()
        var children: [Layer] = []
        try ModelLock.shared.withLock {
            try root.setFrame(Rect(x: 0, y: 0, width: 128, height: 128))
            for i in 0..<16 {
                let l = Layer()
                try l.setFrame(Rect(x: Double(i % 4) * 32, y: Double(i / 4) * 32, width: 30, height: 30))
                try l.set(LayerProperties.backgroundColor, Color(r: 1, g: 0, b: 0, a: 1))
                try root.addSublayer(l)
                children.append(l)
            }
            try display.setRoot(root)
            Transaction.flush()
        }
        let layers = children
        final class Worker: @unchecked Sendable {
            let layers: [Layer]
            let offset: Int
            init(_ layers: [Layer], _ offset: Int) { self.layers = layers; self.offset = offset }
            func run() {
                for round in 0..<200 {
                    ModelLock.shared.withLock {
                        Transaction.begin()
                        for (i, l) in layers.enumerated() where i % 2 == offset {
                            try? l.set(LayerProperties.opacity, Double((round + i) % 10) / 10 + 0.05)
                            try? l.set(LayerProperties.position, Point(x: Double(round % 100), y: Double(i * 8)))
                        }
                        try? Transaction.commit()
                    }
                    RunLoop.current.runOnce(timeout: 0)
                }
            }
        }
        var threads: [pthread_t] = []
        for offset in 0..<2 {
            let worker = Unmanaged.passRetained(Worker(layers, offset)).toOpaque()
            var thread = pthread_t()
            pthread_create(&thread, nil, { context in
                let w = Unmanaged<Worker>.fromOpaque(context!).takeRetainedValue()
                w.run()
                return nil
            }, worker)
            threads.append(thread)
        }
        // Meanwhile this thread reads presentation values and pixels.
        var rgba = [UInt8](repeating: 0, count: 128 * 128 * 4)
        for _ in 0..<50 {
            _ = ModelLock.shared.withLock { layers[0].presentationCopy(at: mediaTime()) }
            try? rgba.withUnsafeMutableBytes { try display.readPixels(into: $0.baseAddress!, stride: 128 * 4) }
            usleep(2000)
        }
        for t in threads { pthread_join(t, nil) }
        #expect(display.framesPresented > 0)
    }
}
