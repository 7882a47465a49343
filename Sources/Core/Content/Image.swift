import CLayerKit
import Synchronization

/// lk_image: immutable pixels, stored premultiplied ARGB32 (what every
/// backend composites). Backends see it through a stable lk_dl_image and may
/// cache derived data by id and generation; they are told when it goes.
public final class Image: Object, @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// width * height words, rows packed.
    let pixels: UnsafeMutablePointer<UInt32>
    /// The backend's view of this image; its address is stable for the image's life.
    let descriptor: UnsafeMutablePointer<lk_dl_image>

    private static let nextID = Atomic<UInt64>(1)

    public var id: UInt64 { descriptor.pointee.id }

    /// Copies `pixels` (rows of `stride` bytes) in the given format.
    public convenience init(width: Int, height: Int, stride: Int, format: PixelFormat,
                            pixels source: UnsafeRawPointer) throws(LayerKitError) {
        let pixels = try PixelStorage.allocate(words: width * height, for: "image")
        switch format {
        case .rgba8:
            PixelConversion.rgbaToPremultiplied(width: width, height: height, source: source,
                                                sourceStride: stride, into: pixels)
        case .argb32Premultiplied:
            for y in 0..<height {
                (pixels + y * width).update(from: source.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self),
                                            count: width)
            }
        }
        self.init(width: width, height: height, adopting: pixels)
    }

    /// Takes ownership of width * height premultiplied words (from
    /// PixelStorage).
    init(width: Int, height: Int, adopting pixels: UnsafeMutablePointer<UInt32>) {
        self.width = width
        self.height = height
        self.pixels = pixels
        descriptor = .allocate(capacity: 1)
        descriptor.initialize(to: lk_dl_image(
            id: Image.nextID.wrappingAdd(1, ordering: .relaxed).oldValue,
            generation: 1,
            width: UInt32(width), height: UInt32(height),
            stride: UInt32(width * 4),
            format: UInt32(LK_DL_FORMAT_ARGB32_PREMULTIPLIED.rawValue),
            pixels: UnsafeRawPointer(pixels)))
        super.init(kind: .image)
    }

    deinit {
        DisplayRegistry.shared.imageReleased(id)
        PixelStorage.free(pixels)
        descriptor.deallocate()
    }

    /// Checks the arguments of lk_image_create_from_pixels.
    public static func validate(width: Int, height: Int, stride: Int) throws(LayerKitError) {
        guard width > 0 else { throw .invalid("width: must be greater than 0 (got \(width))") }
        guard height > 0 else { throw .invalid("height: must be greater than 0 (got \(height))") }
        guard width <= 32768, height <= 32768 else {
            throw .invalid("width, height: \(width)x\(height) is larger than the limit of 32768x32768")
        }
        // (stride is the program's size_t: printed unsigned; one past half
        // the address space reads as negative here, and is no buffer's)
        guard stride >= 0 else {
            throw .invalid("stride: \(UInt(bitPattern: stride)) bytes for \(height) rows is more than any buffer can hold")
        }
        guard stride >= width * 4 else {
            throw .invalid("stride: \(UInt(bitPattern: stride)) bytes is less than width * 4 = \(width * 4)")
        }
        // No buffer of stride x height bytes fits in the address space past
        // this (a stride of 2^62 for 3 rows overflowed into a crash).
        guard stride <= Int.max / height / 2 else {
            throw .invalid("stride: \(stride) bytes for \(height) rows is more than any buffer can hold")
        }
    }

    /// The pixels as RGBA8 straight alpha.
    public func readRGBA(into destination: UnsafeMutableRawPointer, stride: Int) {
        PixelConversion.premultipliedToRGBA(width: width, height: height, source: pixels,
                                            sourceStride: width * 4, into: destination, destinationStride: stride)
    }
}

extension Image {
    /// Decodes a PNG file (any PNG colour type; stored premultiplied).
    public convenience init(pngFile file: String) throws(LayerKitError) {
        let decoded = try PNG.read(file: file)
        defer { PixelStorage.free(decoded.rgba) }
        let pixels = try PixelStorage.allocate(words: decoded.width * decoded.height, for: "file_name: PNG '\(file)'")
        PixelConversion.rgbaToPremultiplied(width: decoded.width, height: decoded.height, source: decoded.rgba,
                                            sourceStride: decoded.width * 4, into: pixels)
        self.init(width: decoded.width, height: decoded.height, adopting: pixels)
    }

    public func writePNG(to file: String) throws(LayerKitError) {
        let rgba = try PixelStorage.allocate(words: width * height, for: "image")
        defer { PixelStorage.free(rgba) }
        readRGBA(into: rgba, stride: width * 4)
        try PNG.write(file: file, width: width, height: height, rgba: rgba, stride: width * 4)
    }
}
