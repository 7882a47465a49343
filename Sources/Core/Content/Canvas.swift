import CContent

/// lk_canvas: the CPU surface a delegate draws a layer's content into:
/// premultiplied ARGB32 pixels covering the layer's bounds at its
/// contentsScale, in the layer's coordinates. Valid only while the delegate
/// draws; its pixels then become the layer's contents.
public final class Canvas: Object, @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let scale: Double
    public let bounds: Rect
    /// width * height words; handed to an Image at the end.
    private var storage: UnsafeMutablePointer<UInt32>?
    public var stride: Int { width * 4 }

    /// nil when the pixels cannot be allocated.
    init?(width: Int, height: Int, scale: Double, bounds: Rect) {
        self.width = width
        self.height = height
        self.scale = scale
        self.bounds = bounds
        guard let pixels = try? PixelStorage.allocateCleared(words: width * height, for: "canvas") else { return nil }
        storage = pixels
        super.init(kind: .canvas)
    }

    deinit { if let storage { PixelStorage.free(storage) } }

    /// The pixels while the canvas is valid.
    public func pixels() throws(LayerKitError) -> UnsafeMutablePointer<UInt32> {
        guard let storage else {
            throw LayerKitError(.state, "canvas: the canvas is only valid while the delegate's draw callback runs")
        }
        return storage
    }

    /// Ends drawing: the pixels become an image; the canvas is invalid after.
    func finish() -> Image? {
        guard let storage else { return nil }
        self.storage = nil
        return Image(width: width, height: height, adopting: storage)
    }

    private func withTarget(_ draw: (UnsafePointer<lkc_target>) -> Void) throws(LayerKitError) {
        var target = lkc_target(pixels: try pixels(), width: Int32(width), height: Int32(height),
                                stride: Int32(stride), scale: scale, origin_x: bounds.minX, origin_y: bounds.minY)
        draw(&target)
    }

    public func clear(_ color: Color) throws(LayerKitError) {
        try checkUnitColor("color", color)
        try withTarget { lkc_clear($0, ContentRasterizer.color(color)) }
    }

    public func fill(_ path: Path, color: Color, rule: FillRule) throws(LayerKitError) {
        try checkUnitColor("color", color)
        let (ops, points) = path.data.flattenedForRasterizer()
        try withTarget { target in
            ops.withUnsafeBufferPointer { o in
                points.withUnsafeBufferPointer { p in
                    var cPath = lkc_path(ops: o.baseAddress, op_count: ops.count, points: p.baseAddress)
                    lkc_fill_path(target, &cPath, ContentRasterizer.color(color), rule == .evenOdd ? 1 : 0)
                }
            }
        }
    }

    public struct StrokeStyle {
        public var lineWidth = 1.0, miterLimit = 10.0, dashPhase = 0.0
        public var lineCap = LineCap.butt, lineJoin = LineJoin.miter
        public var dashes: [Double] = []
        public init() {}
    }

    public func stroke(_ path: Path, color: Color, style: StrokeStyle) throws(LayerKitError) {
        try checkUnitColor("color", color)
        guard style.lineWidth.isFinite, style.lineWidth >= 0 else {
            throw .invalid("style->line_width: must be finite and not negative (got \(style.lineWidth))")
        }
        guard style.miterLimit.isFinite, style.miterLimit >= 0, style.dashPhase.isFinite else {
            throw .invalid("style: miter_limit and dash_phase must be finite, miter_limit not negative")
        }
        guard style.dashes.allSatisfy({ $0.isFinite && $0 >= 0 }),
              style.dashes.isEmpty || style.dashes.contains(where: { $0 > 0 }) else {
            throw .invalid("style->dash_lengths: lengths must be finite, not negative, and not all 0")
        }
        let (ops, points) = path.data.flattenedForRasterizer()
        try withTarget { target in
            ops.withUnsafeBufferPointer { o in
                points.withUnsafeBufferPointer { p in
                    style.dashes.withUnsafeBufferPointer { d in
                        var cPath = lkc_path(ops: o.baseAddress, op_count: ops.count, points: p.baseAddress)
                        var s = lkc_stroke(width: style.lineWidth, miter_limit: style.miterLimit,
                                           cap: Int32(style.lineCap.rawValue), join: Int32(style.lineJoin.rawValue),
                                           dashes: d.baseAddress, dash_count: d.count, dash_phase: style.dashPhase,
                                           start: 0, end: 1)
                        lkc_stroke_path(target, &cPath, ContentRasterizer.color(color), &s)
                    }
                }
            }
        }
    }

    public func draw(_ image: Image, in rect: Rect, opacity: Double) throws(LayerKitError) {
        guard rect.isFinite, opacity.isFinite else { throw .invalid("rect, opacity: must be finite") }
        try withTarget { target in
            lkc_image(target, image.pixels, Int32(image.width), Int32(image.height), Int32(image.width * 4),
                      rect.origin.x, rect.origin.y, rect.size.width, rect.size.height, min(max(opacity, 0), 1))
        }
    }

    /// `font` nil: the text layer's default font. An empty name is refused,
    /// as a text layer refuses it (it drew in the default font).
    public func draw(text: String, font: String?, size: Double, color: Color, alignment: TextAlignment,
                     in rect: Rect) throws(LayerKitError) {
        if let font, font.isEmpty { throw .invalid("font_name: the name is empty") }
        try checkUnitColor("color", color)
        guard size.isFinite, size >= 0, rect.isFinite else { throw .invalid("font_size, rect: must be finite, the size not negative") }
        var style = TextState()
        style.font = font ?? TextState.defaultFont
        style.fontSize = size
        style.foregroundColor = color
        style.alignmentMode = alignment
        style.wrapped = true
        try withTarget { target in ContentRasterizer.drawText(text, style, in: rect, target: target) }
    }

    public func draw(gradient: GradientState, in rect: Rect) throws(LayerKitError) {
        guard rect.isFinite, gradient.startPoint.isFinite, gradient.endPoint.isFinite else {
            throw .invalid("rect, start_point, end_point: must be finite")
        }
        _ = try GradientProperties.colors.validated(gradient.colors, in: LayerState())
        _ = try GradientProperties.locations.validated(gradient.locations, in: LayerState())
        try withTarget { target in ContentRasterizer.drawGradient(gradient, in: rect, target: target) }
    }
}
