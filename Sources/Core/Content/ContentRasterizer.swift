import CContent
import Glibc

/// Rasterizes what a special layer draws (S7.1-S7.3) into a premultiplied
/// image, on the CPU, with cairo and Pango (Sources/CContent). Backends
/// receive the result as an ordinary image op.
public enum ContentRasterizer {
    /// An image and where it lands in the layer's coordinates.
    public struct Output {
        public let image: Image
        public let rect: Rect
    }

    /// No side of a content image exceeds this many pixels: a shape far
    /// larger than its layer is cut to the layer's neighbourhood.
    static let maximumSide = 8192.0

    /// The layer's content for `state`, or nil when it draws nothing.
    /// `scale`: the pixels per point a shape is rasterized at (its
    /// contentsScale, or more where the layer is enlarged on screen: Core
    /// Animation maps a shape to screen space before rasterizing it); text
    /// and gradients take their contentsScale, as in Core Animation.
    public static func rasterize(_ state: UnsafePointer<LayerState>, scale: Double) -> Output? {
        let s = state.pointee
        switch s.layerKind {
        case .plain, .transform, .scroll, .tiled: return nil
        case .shape: return shape(s.shape, bounds: s.bounds, scale: scale)
        case .text: return text(s.text, bounds: s.bounds, scale: s.contentsScale)
        case .gradient: return gradient(s.gradient, bounds: s.bounds, scale: s.contentsScale)
        // Drawn by the display list builder itself, not as one picture.
        case .emitter, .replicator: return nil
        }
    }

    // MARK: Targets

    /// Zeroed pixels covering `rect` (layer coordinates) at `scale`, snapped
    /// outwards to whole pixels; nil when empty or absurd.
    static func withTarget(covering rect: Rect, scale: Double,
                           _ draw: (UnsafePointer<lkc_target>) -> Void) -> Output? {
        guard rect.isFinite, rect.size.width > 0, rect.size.height > 0, scale > 0 else { return nil }
        let x0 = (rect.minX * scale).rounded(.down), y0 = (rect.minY * scale).rounded(.down)
        let x1 = (rect.maxX * scale).rounded(.up), y1 = (rect.maxY * scale).rounded(.up)
        // Sized in doubles first: bounds near the largest doubles give
        // sides past Int's range (or infinite), which Int() traps on.
        let w = x1 - x0, h = y1 - y0
        guard w > 0, h > 0, w <= maximumSide, h <= maximumSide else { return nil }
        let width = Int(w), height = Int(h)
        // (out of memory: drawn as nothing, as a shape too large to draw)
        guard let pixels = try? PixelStorage.allocateCleared(words: width * height, for: "content") else { return nil }
        var target = lkc_target(pixels: pixels, width: Int32(width), height: Int32(height), stride: Int32(width * 4),
                                scale: scale, origin_x: x0 / scale, origin_y: y0 / scale)
        draw(&target)
        let image = Image(width: width, height: height, adopting: pixels)
        return Output(image: image, rect: Rect(x: x0 / scale, y: y0 / scale,
                                               width: Double(width) / scale, height: Double(height) / scale))
    }

    static func color(_ c: Color) -> lkc_color { lkc_color(r: c.r, g: c.g, b: c.b, a: c.a) }

    /// A shape's box (layer coordinates) within maximumSide pixels a side:
    /// as it is when it fits, else cut to the layer's bounds grown by a
    /// quarter of maximumSide, or by what still fits when the bounds are
    /// wide (grown by the quarter, a layer over 4,096 pixels no longer fit,
    /// and drew nothing). Layers over maximumSide themselves draw nothing.
    static func cut(_ rect: Rect, near bounds: Rect, scale: Double) -> Rect {
        guard rect.size.width * scale > maximumSide || rect.size.height * scale > maximumSide else { return rect }
        let side = (maximumSide - 2) / scale   // (2: withTarget's snapping outwards to whole pixels)
        let dx = min(side / 4, max(0, (side - bounds.size.width) / 2))
        let dy = min(side / 4, max(0, (side - bounds.size.height) / 2))
        return rect.intersection(Rect(x: bounds.minX - dx, y: bounds.minY - dy,
                                      width: bounds.size.width + 2 * dx, height: bounds.size.height + 2 * dy))
    }

    // MARK: Shape (S7.1)

    /// What a shape draws: its fill and stroke colours (nil: none) and the
    /// box it can reach (layer coordinates, before any cut); nil when it
    /// draws nothing.
    static func shapeExtent(_ shape: ShapeState) -> (fill: Color?, stroke: Color?, box: Rect)? {
        guard let path = shape.path, !path.data.isEmpty else { return nil }
        let fill = shape.fillColor.flatMap { $0.a > 0 ? $0 : nil }
        let stroke = shape.strokeColor.flatMap { $0.a > 0 && shape.lineWidth > 0 && shape.strokeEnd > shape.strokeStart ? $0 : nil }
        guard fill != nil || stroke != nil else { return nil }
        var rect = path.data.bounds
        if stroke != nil {
            // How far a stroke can reach beyond the path: half the width,
            // the longest miter of its joins (at most miterLimit) times
            // that, a square cap √2 times.
            var reach = shape.lineWidth / 2
            if shape.lineJoin == .miter {
                // dashed and trimmed strokes are drawn from the flattened path (content.c)
                let curvesAsLines = !shape.lineDashPattern.isEmpty || shape.strokeStart > 0 || shape.strokeEnd < 1
                reach *= path.data.miterReach(limit: shape.miterLimit, curvesAsLines: curvesAsLines)
            }
            if shape.lineCap == .square { reach = max(reach, shape.lineWidth / 2 * 2.0.squareRoot()) }
            rect = rect.insetBy(-reach)
        }
        return (fill, stroke, rect.insetBy(-1)) // (-1: anti-aliasing)
    }

    public static func shape(_ shape: ShapeState, bounds: Rect, scale: Double) -> Output? {
        guard let path = shape.path, let (fill, stroke, box) = shapeExtent(shape) else { return nil }
        let rect = cut(box, near: bounds, scale: scale)
        let (ops, points) = path.data.flattenedForRasterizer()
        return withTarget(covering: rect, scale: scale) { target in
            ops.withUnsafeBufferPointer { o in
                points.withUnsafeBufferPointer { p in
                    var cPath = lkc_path(ops: o.baseAddress, op_count: ops.count, points: p.baseAddress)
                    var fillColor = color(fill ?? .clear), strokeColor = color(stroke ?? .clear)
                    shape.lineDashPattern.withUnsafeBufferPointer { dashes in
                        var style = lkc_stroke(
                            width: shape.lineWidth, miter_limit: shape.miterLimit,
                            cap: Int32(shape.lineCap.rawValue), join: Int32(shape.lineJoin.rawValue),
                            dashes: dashes.baseAddress, dash_count: dashes.count, dash_phase: shape.lineDashPhase,
                            start: shape.strokeStart, end: shape.strokeEnd)
                        withUnsafePointer(to: &fillColor) { f in
                            withUnsafePointer(to: &strokeColor) { st in
                                lkc_shape(target, &cPath, fill == nil ? nil : f, shape.fillRule == .evenOdd ? 1 : 0,
                                          stroke == nil ? nil : st, &style)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A shadowPath's coverage (S6.1): opaque white where the path fills by
    /// the non-zero rule (Core Animation's rule for shadowPath), nothing
    /// elsewhere; the shadow group tints and blurs it. Cut like a shape.
    static func coverage(of path: PathData, bounds: Rect, scale: Double) -> Output? {
        guard !path.isEmpty else { return nil }
        let rect = cut(path.bounds.insetBy(-1), near: bounds, scale: scale) // (-1: anti-aliasing)
        let (ops, points) = path.flattenedForRasterizer()
        return withTarget(covering: rect, scale: scale) { target in
            ops.withUnsafeBufferPointer { o in
                points.withUnsafeBufferPointer { p in
                    var cPath = lkc_path(ops: o.baseAddress, op_count: ops.count, points: p.baseAddress)
                    lkc_fill_path(target, &cPath, color(Color(r: 1, g: 1, b: 1, a: 1)), 0)
                }
            }
        }
    }

    // MARK: Text (S7.2)

    static func text(_ text: TextState, bounds: Rect, scale: Double) -> Output? {
        guard let string = text.string, !string.isEmpty, let fg = text.foregroundColor, fg.a > 0,
              text.fontSize > 0 else { return nil }
        return withTarget(covering: bounds, scale: scale) { target in
            drawText(string, text, in: bounds, target: target)
        }
    }

    /// The largest font size, in pixels (fontSize x contentsScale), text is
    /// drawn at. At 65,536 pixels FreeType fails to make the font, and cairo
    /// then fails every size of that face drawn before too, for the rest of
    /// the process (S8.1: text at ordinary sizes stopped drawing). A glyph
    /// this large is four times the largest content image (maximumSide).
    static let maximumFontPixels = 32768.0

    /// Lays out and draws; returns the number of glyphs (0, drawing
    /// nothing, above maximumFontPixels).
    @discardableResult
    static func drawText(_ string: String, _ text: TextState, in box: Rect, target: UnsafePointer<lkc_target>) -> Int {
        guard text.fontSize * target.pointee.scale <= maximumFontPixels else { return 0 }
        var string = string
        return string.withUTF8 { utf8 in
            text.font.withCString { font in
                var style = lkc_text_style(font: font, size: text.fontSize,
                                           color: color(text.foregroundColor ?? .clear),
                                           alignment: Int32(text.alignmentMode.rawValue),
                                           truncation: Int32(text.truncationMode.rawValue),
                                           wrapped: text.wrapped ? 1 : 0)
                return Int(utf8.withMemoryRebound(to: CChar.self) { chars in
                    lkc_text(target, chars.baseAddress, chars.count, &style, box.minX, box.minY,
                             box.size.width, box.size.height)
                })
            }
        }
    }

    // MARK: Gradient (S7.3)

    public static func gradient(_ g: GradientState, bounds: Rect, scale: Double) -> Output? {
        guard !g.colors.isEmpty else { return nil }
        // A gradient varies smoothly: one over maximumSide pixels a side is
        // drawn at fewer pixels and stretched (it drew nothing; the axial
        // and radial ones, drawn by the backends, have no limit).
        let longest = max(bounds.size.width, bounds.size.height) * scale
        let scale = longest > maximumSide - 2 ? scale * (maximumSide - 2) / longest : scale
        return withTarget(covering: bounds, scale: scale) { target in
            drawGradient(g, in: bounds, target: target)
        }
    }

    static func drawGradient(_ g: GradientState, in box: Rect, target: UnsafePointer<lkc_target>) {
        let drawn = g.stopsWithinUnitRange()
        let colors = drawn.map { $0.map { color($0.color) } } ?? g.colors.map(color)
        let locations: [Double]? = drawn.map { $0.map(\.location) }
            ?? (g.locations.count == g.colors.count ? g.locations : nil)
        colors.withUnsafeBufferPointer { c in
            if let locations {
                locations.withUnsafeBufferPointer { l in
                    lkc_gradient(target, Int32(g.type.rawValue), c.baseAddress, l.baseAddress, c.count,
                                 g.startPoint.x, g.startPoint.y, g.endPoint.x, g.endPoint.y,
                                 box.minX, box.minY, box.size.width, box.size.height)
                }
            } else {
                lkc_gradient(target, Int32(g.type.rawValue), c.baseAddress, nil, c.count,
                             g.startPoint.x, g.startPoint.y, g.endPoint.x, g.endPoint.y,
                             box.minX, box.minY, box.size.width, box.size.height)
            }
        }
    }
}

extension Rect {
    /// Grown (negative d) or shrunk on every side.
    func insetBy(_ d: Double) -> Rect {
        Rect(x: minX + d, y: minY + d, width: max(0, size.width - 2 * d), height: max(0, size.height - 2 * d))
    }

    func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
