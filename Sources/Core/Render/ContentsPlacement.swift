/// Where a layer's contents image lands in its bounds (S6.1): the part of
/// the image chosen by contentsRect, sized by contentsScale, placed by
/// contentsGravity.
enum ContentsPlacement {
    /// `destination` in layer coordinates, `source` in image pixels; nil when
    /// nothing would be drawn.
    static func place(imageWidth: Int, imageHeight: Int, in bounds: Rect, contentsRect cr: Rect,
                      gravity: ContentsGravity, scale: Double) -> (destination: Rect, source: Rect)? {
        let source = Rect(x: cr.origin.x * Double(imageWidth), y: cr.origin.y * Double(imageHeight),
                          width: cr.size.width * Double(imageWidth), height: cr.size.height * Double(imageHeight))
        let natural = Size(width: abs(source.size.width) / scale, height: abs(source.size.height) / scale)
        guard natural.width > 0, natural.height > 0, bounds.size.width > 0, bounds.size.height > 0 else { return nil }
        let b = bounds
        var size = natural
        let sampled = edgeExtended(source, width: Double(imageWidth), height: Double(imageHeight))
        switch gravity {
        case .resize:
            return (b, sampled)
        case .resizeAspect, .resizeAspectFill:
            let sx = b.size.width / natural.width, sy = b.size.height / natural.height
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            size = Size(width: natural.width * s, height: natural.height * s)
        default:
            break
        }
        let left = b.minX, right = b.maxX - size.width, midX = b.minX + (b.size.width - size.width) / 2
        let top = b.minY, bottom = b.maxY - size.height, midY = b.minY + (b.size.height - size.height) / 2
        let origin: Point
        switch gravity {
        case .resize, .resizeAspect, .resizeAspectFill, .center: origin = Point(x: midX, y: midY)
        case .top: origin = Point(x: midX, y: top)
        case .bottom: origin = Point(x: midX, y: bottom)
        case .left: origin = Point(x: left, y: midY)
        case .right: origin = Point(x: right, y: midY)
        case .topLeft: origin = Point(x: left, y: top)
        case .topRight: origin = Point(x: right, y: top)
        case .bottomLeft: origin = Point(x: left, y: bottom)
        case .bottomRight: origin = Point(x: right, y: bottom)
        }
        return (Rect(origin: origin, size: size), sampled)
    }

    /// Apple's contentsRect: "If pixels outside the unit rectangle are
    /// requested, the edge pixels of the contents image will be extended
    /// outwards." The backends repeat the edge beyond the part of the image
    /// a source covers; a source wholly beside the image (or touching its
    /// edge) covers none of it, and drew nothing: along that axis it
    /// becomes a sliver at the nearest edge pixel's centre, every sample
    /// that pixel. (The natural size, for gravity, is the source's own.)
    static func edgeExtended(_ source: Rect, width: Double, height: Double) -> Rect {
        func axis(_ origin: Double, _ size: Double, _ n: Double) -> (Double, Double) {
            let lo = min(origin, origin + size), hi = max(origin, origin + size)
            guard hi <= 0 || lo >= n else { return (origin, size) }
            let sliver = 1.0 / 1024, centre = hi <= 0 ? 0.5 : n - 0.5
            return size < 0 ? (centre + sliver, -sliver) : (centre, sliver)
        }
        let (x, w) = axis(source.origin.x, source.size.width, width)
        let (y, h) = axis(source.origin.y, source.size.height, height)
        return Rect(x: x, y: y, width: w, height: h)
    }
}
