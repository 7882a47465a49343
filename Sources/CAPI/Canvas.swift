import CLayerKit
import LayerKitCore

// Custom drawing (lk_canvas, the delegate's draw), display marking and
// snapshots (renderInContext).

private func canvas(_ handle: OpaquePointer?) throws(LayerKitError) -> Canvas {
    try object(handle, "canvas", .canvas, as: Canvas.self)
}

@c @implementation public func lk_layer_set_needs_display(_ l: OpaquePointer?) -> lk_status {
    run { try layer(l).setNeedsDisplay() }
}
@c @implementation public func lk_layer_get_needs_display(_ l: OpaquePointer?) -> Bool {
    read(false) { try layer(l).needsDisplay }
}
@c @implementation public func lk_layer_display_if_needed(_ l: OpaquePointer?) -> lk_status {
    run { try layer(l).displayIfNeeded() }
}
@c @implementation public func lk_layer_set_needs_display_on_bounds_change(_ l: OpaquePointer?, _ v: Bool) -> lk_status {
    run {
        let target = try layer(l)
        try target.checkWritable()
        target.needsDisplayOnBoundsChange = v
    }
}
@c @implementation public func lk_layer_get_needs_display_on_bounds_change(_ l: OpaquePointer?) -> Bool {
    read(false) { try layer(l).needsDisplayOnBoundsChange }
}

@c @implementation public func lk_canvas_get_width(_ c: OpaquePointer?) -> UInt32 { read(0) { UInt32(try canvas(c).width) } }
@c @implementation public func lk_canvas_get_height(_ c: OpaquePointer?) -> UInt32 { read(0) { UInt32(try canvas(c).height) } }
@c @implementation public func lk_canvas_get_stride(_ c: OpaquePointer?) -> Int { read(0) { try canvas(c).stride } }
@c @implementation public func lk_canvas_get_scale(_ c: OpaquePointer?) -> Double { read(0) { try canvas(c).scale } }
@c @implementation public func lk_canvas_get_bounds(_ c: OpaquePointer?) -> lk_rect { read(lk_rect()) { try canvas(c).bounds.lk } }
@c @implementation public func lk_canvas_get_pixels(_ c: OpaquePointer?) -> UnsafeMutableRawPointer? {
    read(nil) { UnsafeMutableRawPointer(try canvas(c).pixels()) }
}

@c @implementation public func lk_canvas_clear(_ c: OpaquePointer?, _ color: lk_color) -> lk_status {
    run { try canvas(c).clear(Color(color)) }
}

@c @implementation public func lk_canvas_fill_path(_ c: OpaquePointer?, _ p: OpaquePointer?, _ color: lk_color, _ rule: lk_fill_rule) -> lk_status {
    run {
        let target = try canvas(c)
        guard let r = FillRule(rawValue: Int32(truncatingIfNeeded: rule.rawValue)), rule.rawValue <= 1 else {
            throw LayerKitError(.invalidArgument, "rule: \(rule.rawValue) is not an lk_fill_rule")
        }
        try target.fill(try path(p, "path"), color: Color(color), rule: r)
    }
}

@c @implementation public func lk_canvas_stroke_path(_ c: OpaquePointer?, _ p: OpaquePointer?, _ color: lk_color,
                                                     _ style: UnsafePointer<lk_stroke_style>?) -> lk_status {
    run {
        let target = try canvas(c)
        var s = Canvas.StrokeStyle()
        if let style {
            let st = style.pointee
            guard st.struct_size >= UInt32(MemoryLayout<lk_stroke_style>.size) else {
                throw LayerKitError(.invalidArgument, "style->struct_size: \(st.struct_size) is less than sizeof(lk_stroke_style) = \(MemoryLayout<lk_stroke_style>.size)")
            }
            guard let cap = LineCap(rawValue: Int32(truncatingIfNeeded: st.line_cap.rawValue)), st.line_cap.rawValue <= 2 else {
                throw LayerKitError(.invalidArgument, "style->line_cap: \(st.line_cap.rawValue) is not an lk_line_cap")
            }
            guard let join = LineJoin(rawValue: Int32(truncatingIfNeeded: st.line_join.rawValue)), st.line_join.rawValue <= 2 else {
                throw LayerKitError(.invalidArgument, "style->line_join: \(st.line_join.rawValue) is not an lk_line_join")
            }
            s.lineWidth = st.line_width
            s.miterLimit = st.miter_limit
            s.lineCap = cap
            s.lineJoin = join
            s.dashPhase = st.dash_phase
            if try arrayCount(st.dash_count, "style->dash_count", limit: 1024) > 0 {
                guard let d = st.dash_lengths else {
                    throw LayerKitError(.invalidArgument, "style->dash_lengths: NULL with a count of \(st.dash_count)")
                }
                s.dashes = (0..<st.dash_count).map { d[$0] }
            }
        }
        try target.stroke(try path(p, "path"), color: Color(color), style: s)
    }
}

@c @implementation public func lk_canvas_draw_image(_ c: OpaquePointer?, _ i: OpaquePointer?, _ rect: lk_rect, _ opacity: Double) -> lk_status {
    run { try canvas(c).draw(try image(i), in: Rect(rect), opacity: opacity) }
}

@c @implementation public func lk_canvas_draw_text(_ c: OpaquePointer?, _ utf8: UnsafePointer<CChar>?, _ font: UnsafePointer<CChar>?,
                                                   _ size: Double, _ color: lk_color, _ alignment: lk_text_alignment,
                                                   _ rect: lk_rect) -> lk_status {
    run {
        let target = try canvas(c)
        guard let a = TextAlignment(rawValue: Int32(truncatingIfNeeded: alignment.rawValue)), alignment.rawValue <= 4 else {
            throw LayerKitError(.invalidArgument, "alignment: \(alignment.rawValue) is not an lk_text_alignment")
        }
        try target.draw(text: try string(utf8, "utf8"), font: font == nil ? nil : try string(font, "font_name"),
                        size: size, color: Color(color), alignment: a, in: Rect(rect))
    }
}

@c @implementation public func lk_canvas_draw_gradient(_ c: OpaquePointer?, _ type: lk_gradient_type, _ colors: UnsafePointer<lk_color>?,
                                                       _ locations: UnsafePointer<Double>?, _ count: Int, _ start: lk_point,
                                                       _ end: lk_point, _ rect: lk_rect) -> lk_status {
    run {
        let target = try canvas(c)
        guard let t = GradientType(rawValue: Int32(truncatingIfNeeded: type.rawValue)), type.rawValue <= 2 else {
            throw LayerKitError(.invalidArgument, "type: \(type.rawValue) is not an lk_gradient_type")
        }
        let count = try arrayCount(count, "count", limit: 1 << 16)
        guard count == 0 || colors != nil else { throw LayerKitError(.invalidArgument, "colors: NULL with a count of \(count)") }
        var g = GradientState()
        g.type = t
        g.colors = (0..<count).map { Color(colors![$0]) }
        if let locations { g.locations = (0..<count).map { locations[$0] } }
        g.startPoint = Point(start)
        g.endPoint = Point(end)
        try target.draw(gradient: g, in: Rect(rect))
    }
}

@c @implementation public func lk_layer_render_to_image(_ l: OpaquePointer?, _ scale: Double) -> OpaquePointer? {
    create { try layer(l).renderToImage(scale: scale) }
}
