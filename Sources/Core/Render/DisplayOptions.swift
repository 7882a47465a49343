import Glibc

/// What lk_display_open was asked for.
public struct DisplayOptions: Sendable {
    /// "auto", or a plugin name such as "software", "gles", "drm".
    public var backend: String?
    public var device: String?
    public var connector: String?
    public var width = 0
    public var height = 0
    public var rotation = 0
    public var manualClock = false

    public init() {}

    func validate() throws(LayerKitError) {
        guard (0...16384).contains(width) else { throw .invalid("options->width: \(width) is out of range (0...16384)") }
        guard (0...16384).contains(height) else { throw .invalid("options->height: \(height) is out of range (0...16384)") }
        guard [0, 90, 180, 270].contains(rotation) else {
            throw .invalid("options->rotation: \(rotation) is not one of 0, 90, 180, 270")
        }
    }

    /// options->backend, else $LAYERKIT_BACKEND, else "auto".
    var resolvedBackend: String {
        if let backend, !backend.isEmpty { return backend }
        if let env = getenv("LAYERKIT_BACKEND"), env.pointee != 0 { return String(cString: env) }
        return "auto"
    }
}
