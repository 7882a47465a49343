import CLayerKit
import LayerKitCore

// Images from pixels and PNG files.

@c @implementation public func lk_image_create_from_pixels(_ width: UInt32, _ height: UInt32, _ stride: Int,
                                                            _ format: lk_pixel_format, _ pixels: UnsafeRawPointer?) -> OpaquePointer? {
    create {
        try Image.validate(width: Int(width), height: Int(height), stride: stride)
        guard let pixelFormat = PixelFormat(rawValue: Int32(bitPattern: format.rawValue)) else {
            throw LayerKitError(.invalidArgument, "format: \(format.rawValue) is not an lk_pixel_format")
        }
        guard let pixels else { throw LayerKitError(.invalidArgument, "pixels: NULL") }
        return try Image(width: Int(width), height: Int(height), stride: stride, format: pixelFormat, pixels: pixels)
    }
}

@c @implementation public func lk_image_create_from_png_file(_ fileName: UnsafePointer<CChar>?) -> OpaquePointer? {
    create { try Image(pngFile: try string(fileName, "file_name")) }
}

@c @implementation public func lk_image_get_width(_ i: OpaquePointer?) -> UInt32 {
    read(0) { UInt32(try image(i).width) }
}

@c @implementation public func lk_image_get_height(_ i: OpaquePointer?) -> UInt32 {
    read(0) { UInt32(try image(i).height) }
}

@c @implementation public func lk_image_read_pixels(_ i: OpaquePointer?, _ rgba8: UnsafeMutableRawPointer?, _ stride: Int) -> lk_status {
    run {
        let source = try image(i)
        guard let rgba8 else { throw LayerKitError(.invalidArgument, "rgba8: NULL") }
        guard stride >= source.width * 4 else {
            throw LayerKitError(.invalidArgument, "stride: \(UInt(bitPattern: stride)) bytes is less than width * 4 = \(source.width * 4)")
        }
        source.readRGBA(into: rgba8, stride: stride)
    }
}

@c @implementation public func lk_image_write_png(_ i: OpaquePointer?, _ fileName: UnsafePointer<CChar>?) -> lk_status {
    run { try image(i).writePNG(to: try string(fileName, "file_name")) }
}
