import CLayerKit
import Glibc

/// An open backend instance. Every call into a plugin goes through here.
final class Backend {
    let plugin: BackendPlugin
    private let instance: OpaquePointer
    private let host: UnsafeMutablePointer<lk_backend_host>
    private var errorBuffer = [CChar](repeating: 0, count: 512)
    typealias Output = (width: Int, height: Int, refreshRate: Double, name: String)
    /// What get_output said last (at open, and again after RESIZED).
    private(set) var output: Output

    /// Receives frame completions; set by the display.
    var onFrameDone: ((UInt64, Double) -> Void)?
    /// Receives the output's events (any thread, possibly inside render());
    /// set by the display.
    var onOutputChanged: ((UInt32, String?) -> Void)?

    init(plugin: BackendPlugin, options: DisplayOptions) throws(LayerKitError) {
        self.plugin = plugin
        host = .allocate(capacity: 1)
        host.initialize(to: lk_backend_host(
            abi_version: LK_BACKEND_ABI_VERSION,
            struct_size: UInt32(MemoryLayout<lk_backend_host>.size),
            host_data: nil,
            log: { _, level, message in Backend.log(level: level, message: message) },
            frame_done: { data, frame, time in
                guard let data else { return }
                Unmanaged<BackendCallbacks>.fromOpaque(data).takeUnretainedValue().frameDone(frame, time)
            },
            output_changed: { data, event, detail in
                guard let data else { return }
                Unmanaged<BackendCallbacks>.fromOpaque(data).takeUnretainedValue()
                    .outputChanged(event, detail.map { String(cString: $0) })
            }))
        let callbacks = BackendCallbacks()
        host.pointee.host_data = Unmanaged.passRetained(callbacks).toOpaque()

        var openOptions = lk_backend_open_options()
        openOptions.struct_size = UInt32(MemoryLayout<lk_backend_open_options>.size)
        openOptions.width = UInt32(options.width)
        openOptions.height = UInt32(options.height)
        openOptions.rotation = UInt32(options.rotation)
        var error = [CChar](repeating: 0, count: 512)
        let table = plugin.table
        let host = self.host
        let opened: OpaquePointer? = withOptionalCString(options.device) { device in
            withOptionalCString(options.connector) { connector in
                openOptions.device = device
                openOptions.connector = connector
                return table.pointee.open(host, &openOptions, &error, error.count)
            }
        }
        guard let opened else {
            Unmanaged<BackendCallbacks>.fromOpaque(host.pointee.host_data).release()
            host.deallocate()
            let reason = cString(error)
            throw LayerKitError(.backend, "backend \"\(plugin.name)\": cannot open: \(reason.isEmpty ? "no reason given" : reason)")
        }
        instance = opened
        guard let info = Backend.queryOutput(plugin, opened) else {
            plugin.table.pointee.close(opened)
            Unmanaged<BackendCallbacks>.fromOpaque(host.pointee.host_data).release()
            host.deallocate()
            throw LayerKitError(.backend, "backend \"\(plugin.name)\": the backend reports no usable output")
        }
        output = info
        callbacks.backend = self
    }

    private static func queryOutput(_ plugin: BackendPlugin, _ instance: OpaquePointer) -> Output? {
        var info = lk_backend_output_info()
        info.struct_size = UInt32(MemoryLayout<lk_backend_output_info>.size)
        guard plugin.table.pointee.get_output(instance, &info), info.width > 0, info.height > 0 else { return nil }
        return (Int(info.width), Int(info.height), info.refresh_rate > 0 ? info.refresh_rate : 60,
                info.name.map { String(cString: $0) } ?? plugin.name)
    }

    /// Asks get_output again (after RESIZED); false, keeping the last
    /// answer, when the backend reports no usable output.
    func refreshOutput() -> Bool {
        guard let info = Backend.queryOutput(plugin, instance) else { return false }
        output = info
        return true
    }

    /// The GL renderer the plugin's describe() names (its "GL renderer:"
    /// line), when it has one.
    var glRenderer: String? {
        guard let describe = plugin.table.pointee.describe else { return nil }
        var text = [CChar](repeating: 0, count: 8192)
        guard describe(instance, &text, text.count) else { return nil }
        let label = "GL renderer:"
        let lines = cString(text).split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
        guard let line = lines.first(where: { $0.hasPrefix(label) }) else { return nil }
        return String(line.dropFirst(label.count).drop(while: { $0 == " " }))
    }

    /// A GL that rasterizes on the CPU (Mesa's llvmpipe, softpipe, swrast):
    /// the software backend draws the same pictures many times faster.
    static func isSoftwareRasterizer(_ renderer: String) -> Bool {
        let r = renderer.lowercased()
        return r.contains("llvmpipe") || r.contains("softpipe") || r.contains("swrast")
            || r.contains("software rasterizer")
    }

    func close() {
        plugin.table.pointee.close(instance)
        Unmanaged<BackendCallbacks>.fromOpaque(host.pointee.host_data).release()
        host.deallocate()
    }

    func render(_ list: UnsafePointer<lk_display_list>) throws(LayerKitError) {
        errorBuffer[0] = 0
        guard plugin.table.pointee.render(instance, list, &errorBuffer, errorBuffer.count) else {
            throw LayerKitError(.backend, "backend \"\(plugin.name)\": render failed: \(cString(errorBuffer))")
        }
    }

    /// The last presented frame as premultiplied ARGB32.
    func readPixels(into buffer: UnsafeMutableRawPointer, stride: Int) throws(LayerKitError) {
        errorBuffer[0] = 0
        guard plugin.table.pointee.read_pixels(instance, buffer, stride, &errorBuffer, errorBuffer.count) else {
            throw LayerKitError(.backend, "backend \"\(plugin.name)\": read_pixels failed: \(cString(errorBuffer))")
        }
    }

    func imageReleased(_ id: UInt64) {
        plugin.table.pointee.image_released(instance, id)
    }

    private static let verbose = getenv("LAYERKIT_DEBUG").map { String(cString: $0) != "0" } ?? false

    /// Errors and warnings always reach stderr; the rest with LAYERKIT_DEBUG=1.
    static func log(level: UInt32, message: UnsafePointer<CChar>?) {
        guard let message else { return }
        guard level <= LK_BACKEND_LOG_WARNING.rawValue || verbose else { return }
        let names = ["error", "warning", "info", "debug"]
        writeToStandardError("layerkit: \(names[Int(min(level, 3))]): \(String(cString: message))\n")
    }
}

/// What the plugin calls back into; kept apart so the host struct does not retain the backend.
private final class BackendCallbacks {
    weak var backend: Backend?
    func frameDone(_ frame: UInt64, _ time: Double) { backend?.onFrameDone?(frame, time) }
    func outputChanged(_ event: UInt32, _ detail: String?) { backend?.onOutputChanged?(event, detail) }
}

/// Writes straight to file descriptor 2 (Swift 6 does not import C's stderr).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}

/// The text before the first NUL of a C buffer.
func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
