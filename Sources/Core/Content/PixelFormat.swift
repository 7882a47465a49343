/// Pixel formats at the API (lk_pixel_format).
public enum PixelFormat: Int32, Sendable {
    /// Bytes R, G, B, A with straight alpha.
    case rgba8 = 0
    /// Native 32-bit words 0xAARRGGBB, premultiplied (pixman, cairo, DRM ARGB8888).
    case argb32Premultiplied = 1
}

/// Conversions between the API's straight RGBA bytes and the premultiplied
/// words everything is composited in.
enum PixelConversion {
    @inline(__always)
    static func premultipliedWord(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt32 {
        let a32 = UInt32(a)
        @inline(__always) func mul(_ c: UInt8) -> UInt32 {
            // c * a / 255, rounded, without a division.
            let t = UInt32(c) * a32 + 128
            return (t + (t >> 8)) >> 8
        }
        return a32 << 24 | mul(r) << 16 | mul(g) << 8 | mul(b)
    }

    @inline(__always)
    static func straightBytes(_ word: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = word >> 24
        guard a != 0 else { return (0, 0, 0, 0) }
        @inline(__always) func unmul(_ c: UInt32) -> UInt8 {
            UInt8(min(255, (c * 255 + a / 2) / a))
        }
        return (unmul((word >> 16) & 0xff), unmul((word >> 8) & 0xff), unmul(word & 0xff), UInt8(a))
    }

    /// Copies rows of RGBA8 straight into premultiplied words.
    static func rgbaToPremultiplied(width: Int, height: Int, source: UnsafeRawPointer, sourceStride: Int,
                                    into destination: UnsafeMutablePointer<UInt32>) {
        for y in 0..<height {
            let row = source.advanced(by: y * sourceStride).assumingMemoryBound(to: UInt8.self)
            let out = destination.advanced(by: y * width)
            for x in 0..<width {
                out[x] = premultipliedWord(r: row[4 * x], g: row[4 * x + 1], b: row[4 * x + 2], a: row[4 * x + 3])
            }
        }
    }

    /// Copies premultiplied words (rows of `sourceStride` bytes) into RGBA8 straight.
    static func premultipliedToRGBA(width: Int, height: Int, source: UnsafeRawPointer, sourceStride: Int,
                                    into destination: UnsafeMutableRawPointer, destinationStride: Int) {
        for y in 0..<height {
            let row = source.advanced(by: y * sourceStride).assumingMemoryBound(to: UInt32.self)
            let out = destination.advanced(by: y * destinationStride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let (r, g, b, a) = straightBytes(row[x])
                out[4 * x] = r; out[4 * x + 1] = g; out[4 * x + 2] = b; out[4 * x + 3] = a
            }
        }
    }
}
