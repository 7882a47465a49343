import Glibc

/// Pixel buffers of images and canvases, from malloc: a buffer the system
/// cannot give is an LK_ERROR_OUT_OF_MEMORY for the call that wanted it
/// (Swift's own allocation ends the process: a 20000 x 20000 image under a
/// memory limit aborted lk_image_create_from_pixels). Freed with free().
enum PixelStorage {
    /// `count` words, uninitialised.
    static func allocate(words count: Int, for what: String) throws(LayerKitError) -> UnsafeMutablePointer<UInt32> {
        let (bytes, overflow) = max(1, count).multipliedReportingOverflow(by: 4)
        guard !overflow, let raw = malloc(bytes) else {
            throw LayerKitError(.outOfMemory, "\(what): out of memory for \(UInt(max(1, count)) * 4) bytes of pixels")
        }
        return raw.bindMemory(to: UInt32.self, capacity: max(1, count))
    }

    /// `count` words, all 0 (transparent).
    static func allocateCleared(words count: Int, for what: String) throws(LayerKitError) -> UnsafeMutablePointer<UInt32> {
        guard let raw = calloc(max(1, count), 4) else {
            throw LayerKitError(.outOfMemory, "\(what): out of memory for \(UInt(max(1, count)) * 4) bytes of pixels")
        }
        return raw.bindMemory(to: UInt32.self, capacity: max(1, count))
    }

    static func free(_ pixels: UnsafeMutablePointer<UInt32>) { Glibc.free(pixels) }
}
