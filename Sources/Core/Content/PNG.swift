import CContent
import CPNG

/// PNG files through libpng's simplified API (no setjmp needed).
enum PNG {
    /// PNG_FORMAT_RGBA (PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA), a macro Swift does not import.
    private static let rgbaFormat: UInt32 = 0x02 | 0x01

    /// Decodes a PNG file into RGBA8 straight alpha, rows packed, in words
    /// from PixelStorage (the caller frees them).
    static func read(file: String) throws(LayerKitError) -> (width: Int, height: Int, rgba: UnsafeMutablePointer<UInt32>) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, file) != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            throw LayerKitError(reason.contains("open") ? .notFound : .io, "file_name: cannot read PNG '\(file)': \(reason)")
        }
        image.format = rgbaFormat
        // PNG_IMAGE_FLAG_16BIT_sRGB: 16-bit samples with no gAMA or sRGB
        // chunk are sRGB, as the PNG specification and ImageIO take them;
        // libpng took them as linear and gamma-encoded them (0x8080 came
        // out 186, not 128).
        image.flags |= 0x04
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            png_image_free(&image)
            throw LayerKitError(.io, "file_name: PNG '\(file)' has unsupported size \(width)x\(height)")
        }
        // libpng's simplified reader takes images of under 4 GiB of RGBA
        // only: refused here, before allocating them (it failed after).
        guard width * height * 4 <= Int(UInt32.max) else {
            png_image_free(&image)
            throw LayerKitError(.io, "file_name: PNG '\(file)' is \(width)x\(height): libpng decodes images of under 4 GiB (width x height x 4) only")
        }
        let rgba: UnsafeMutablePointer<UInt32>
        do { rgba = try PixelStorage.allocate(words: width * height, for: "file_name: PNG '\(file)'") } catch {
            png_image_free(&image)
            throw error
        }
        if lkc_png_is_16bit_interlaced(file) != 0 {
            // (libpng's simplified reader gets these wrong: layerkit_png.h)
            png_image_free(&image)
            var reason = [CChar](repeating: 0, count: 256)
            guard lkc_png_read_rgba8(file, rgba, UInt32(width), UInt32(height), &reason, reason.count) != 0 else {
                PixelStorage.free(rgba)
                throw LayerKitError(.io, "file_name: cannot decode PNG '\(file)': \(String(cString: reason))")
            }
            return (width, height, rgba)
        }
        guard png_image_finish_read(&image, nil, rgba, Int32(width * 4), nil) != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            PixelStorage.free(rgba)
            throw LayerKitError(.io, "file_name: cannot decode PNG '\(file)': \(reason)")
        }
        return (width, height, rgba)
    }

    /// Encodes RGBA8 straight-alpha rows into a PNG file.
    static func write(file: String, width: Int, height: Int, rgba: UnsafeRawPointer, stride: Int) throws(LayerKitError) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = rgbaFormat
        guard png_image_write_to_file(&image, file, 0, rgba, Int32(stride), nil) != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            throw LayerKitError(.io, "file_name: cannot write PNG '\(file)': \(reason)")
        }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
