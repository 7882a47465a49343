import CLayerKit
import LayerKitCore

// Paths (CGPath).

/// Changes the path in place: each change checks its arguments before it
/// touches the path, so an error leaves it as it was. (A copy changed and
/// stored back copied the whole path per call: 262,144 lk_path_line_to
/// took 41 s.)
private func edit(_ p: OpaquePointer?, _ change: (inout PathData) throws -> Void) -> lk_status {
    run {
        let target = try path(p)
        guard !target.isFrozen else {
            throw LayerKitError(.state, "p: the path is a layer's or a value's own (from a getter) and cannot change, "
                                + "as a CGPath cannot; change a copy (lk_path_copy) and set that")
        }
        try change(&target.data)
    }
}

private func points(_ values: [(Double, String)]) throws {
    for (v, name) in values { _ = try finite(v, name) }
}

private func needsCurrentPoint(_ done: Bool, _ call: String) throws {
    guard done else {
        throw LayerKitError(.state, "p: \(call) needs a current point; start the subpath with lk_path_move_to")
    }
}

@c @implementation public func lk_path_create() -> OpaquePointer? {
    create { Path() }
}

@c @implementation public func lk_path_copy(_ p: OpaquePointer?) -> OpaquePointer? {
    create { try path(p, "path").copy() }
}

@c @implementation public func lk_path_move_to(_ p: OpaquePointer?, _ x: Double, _ y: Double) -> lk_status {
    edit(p) { d in
        try points([(x, "x"), (y, "y")])
        d.move(to: Point(x: x, y: y))
    }
}

@c @implementation public func lk_path_line_to(_ p: OpaquePointer?, _ x: Double, _ y: Double) -> lk_status {
    edit(p) { d in
        try points([(x, "x"), (y, "y")])
        try needsCurrentPoint(d.line(to: Point(x: x, y: y)), "lk_path_line_to")
    }
}

@c @implementation public func lk_path_quad_to(_ p: OpaquePointer?, _ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> lk_status {
    edit(p) { d in
        try points([(cx, "cx"), (cy, "cy"), (x, "x"), (y, "y")])
        try needsCurrentPoint(d.quad(control: Point(x: cx, y: cy), to: Point(x: x, y: y)), "lk_path_quad_to")
    }
}

@c @implementation public func lk_path_curve_to(_ p: OpaquePointer?, _ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double,
                                                 _ x: Double, _ y: Double) -> lk_status {
    edit(p) { d in
        try points([(c1x, "c1x"), (c1y, "c1y"), (c2x, "c2x"), (c2y, "c2y"), (x, "x"), (y, "y")])
        try needsCurrentPoint(d.curve(control1: Point(x: c1x, y: c1y), control2: Point(x: c2x, y: c2y), to: Point(x: x, y: y)),
                              "lk_path_curve_to")
    }
}

@c @implementation public func lk_path_close(_ p: OpaquePointer?) -> lk_status {
    edit(p) { d in d.close() }
}

/// The rect standardized, as CGRect's functions take one (CGPathAddRect and
/// the others): a negative width or height extends it the other way, so the
/// rectangle dragged up and to the left draws (it was refused).
private func checkedRect(_ r: lk_rect) throws -> Rect {
    var rect = Rect(r)
    guard rect.isFiniteRect else { throw LayerKitError(.invalidArgument, "r: the rect is not finite") }
    if rect.size.width < 0 { rect.origin.x += rect.size.width; rect.size.width = -rect.size.width }
    if rect.size.height < 0 { rect.origin.y += rect.size.height; rect.size.height = -rect.size.height }
    return rect
}

@c @implementation public func lk_path_add_rect(_ p: OpaquePointer?, _ r: lk_rect) -> lk_status {
    edit(p) { d in d.addRect(try checkedRect(r)) }
}

@c @implementation public func lk_path_add_rounded_rect(_ p: OpaquePointer?, _ r: lk_rect, _ rx: Double, _ ry: Double) -> lk_status {
    edit(p) { d in
        let rect = try checkedRect(r)
        guard try finite(rx, "rx") >= 0, try finite(ry, "ry") >= 0 else {
            throw LayerKitError(.invalidArgument, "rx, ry: corner radii must not be negative")
        }
        d.addRoundedRect(rect, rx: rx, ry: ry)
    }
}

@c @implementation public func lk_path_add_ellipse(_ p: OpaquePointer?, _ r: lk_rect) -> lk_status {
    edit(p) { d in d.addEllipse(in: try checkedRect(r)) }
}

@c @implementation public func lk_path_add_arc(_ p: OpaquePointer?, _ cx: Double, _ cy: Double, _ radius: Double,
                                               _ startAngle: Double, _ endAngle: Double, _ clockwise: Bool) -> lk_status {
    edit(p) { d in
        try points([(cx, "cx"), (cy, "cy"), (startAngle, "start_angle"), (endAngle, "end_angle")])
        guard try finite(radius, "radius") >= 0 else {
            throw LayerKitError(.invalidArgument, "radius: must not be negative (got \(radius))")
        }
        d.addArc(center: Point(x: cx, y: cy), radius: radius, start: startAngle, end: endAngle, clockwise: clockwise)
    }
}

@c @implementation public func lk_path_is_empty(_ p: OpaquePointer?) -> Bool {
    read(true) { try path(p).data.isEmpty }
}

@c @implementation public func lk_path_get_bounds(_ p: OpaquePointer?) -> lk_rect {
    read(Rect.zero.lk) { try path(p).data.bounds.lk }
}

@c @implementation public func lk_path_get_length(_ p: OpaquePointer?) -> Double {
    read(0) { try path(p).data.length }
}

@c @implementation public func lk_path_get_point_at_distance(_ p: OpaquePointer?, _ distance: Double,
                                                             _ point: UnsafeMutablePointer<lk_point>?,
                                                             _ angle: UnsafeMutablePointer<Double>?) -> lk_status {
    run {
        let target = try path(p)
        let d = try finite(distance, "distance")
        guard let point else { throw LayerKitError(.invalidArgument, "point: NULL") }
        guard let at = PathMeasure(target.data).position(atDistance: d) else {
            throw LayerKitError(.state, "p: the path draws nothing (it needs a line or curve after its moveto)")
        }
        point.pointee = at.point.lk
        angle?.pointee = at.angle
    }
}

@c @implementation public func lk_path_create_from_svg(_ pathData: UnsafePointer<CChar>?) -> OpaquePointer? {
    create { Path(try SVGPathParser.parse(try string(pathData, "path_data"))) }
}
