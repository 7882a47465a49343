import CLayerKit
import LayerKitCore

// Shape, text and gradient layers (S7.1-S7.3): typed pairs over their rows
// of the property table. A kind's call on a layer of another kind fails.

private func set<T>(_ handle: OpaquePointer?, _ property: Property<T>, _ value: T) -> lk_status {
    run { try layer(handle).set(property, value) }
}

private func get<T, R>(_ handle: OpaquePointer?, _ property: Property<T>, _ zero: R, _ convert: (T) -> R) -> R {
    read(zero) {
        let target = try layer(handle)
        try target.checkKind(property.kind, property.key)
        return convert(target.get(property))
    }
}

/// A C enum value as the Swift enumeration, or an error naming it.
private func named<E: RawRepresentable<Int32>>(_ raw: UInt32, _ argument: String, as: E.Type) throws(LayerKitError) -> E {
    guard raw <= UInt32(Int32.max), let v = E(rawValue: Int32(raw)) else {
        throw LayerKitError(.invalidArgument, "\(argument): \(raw) is not a valid value")
    }
    return v
}

private func setNamed<E: RawRepresentable<Int32> & PropertyValue>(_ handle: OpaquePointer?, _ property: Property<E>,
                                                                   _ raw: UInt32, _ argument: String) -> lk_status {
    run { try layer(handle).set(property, try named(raw, argument, as: E.self)) }
}

/// Copies a list out: at most `capacity` into `out`, returns the count.
private func copyOut<T, C>(_ items: [T], _ out: UnsafeMutablePointer<C>?, _ capacity: Int, _ convert: (T) -> C) -> Int {
    if let out { for i in 0..<min(capacity, items.count) { out[i] = convert(items[i]) } }
    return items.count
}

private func list<T, C>(_ pointer: UnsafePointer<C>?, _ count: Int, _ argument: String, _ convert: (C) -> T) throws(LayerKitError) -> [T] {
    if try arrayCount(count, "count") == 0 { return [] }
    guard let pointer else { throw LayerKitError(.invalidArgument, "\(argument): NULL with a count of \(count)") }
    return (0..<count).map { convert(pointer[$0]) }
}

@c @implementation public func lk_shape_layer_create() -> OpaquePointer? { create { Layer(layerKind: .shape) } }
@c @implementation public func lk_text_layer_create() -> OpaquePointer? { create { Layer(layerKind: .text) } }
@c @implementation public func lk_gradient_layer_create() -> OpaquePointer? { create { Layer(layerKind: .gradient) } }

// MARK: Shape

private typealias S = ShapeProperties

@c @implementation public func lk_shape_layer_set_path(_ l: OpaquePointer?, _ p: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        try target.set(S.path, p == nil ? nil : try path(p, "path"))
    }
}
@c @implementation public func lk_shape_layer_get_path(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) {
        let target = try layer(l)
        try target.checkKind(.shape, "path")
        return borrowed(target.get(S.path))
    }
}
@c @implementation public func lk_shape_layer_set_fill_color(_ l: OpaquePointer?, _ c: lk_color) -> lk_status {
    set(l, S.fillColor, Color?.some(Color(c)))
}
@c @implementation public func lk_shape_layer_get_fill_color(_ l: OpaquePointer?) -> lk_color {
    get(l, S.fillColor, lk_color()) { ($0 ?? .clear).lk }
}
@c @implementation public func lk_shape_layer_set_fill_rule(_ l: OpaquePointer?, _ v: lk_fill_rule) -> lk_status {
    setNamed(l, S.fillRule, v.rawValue, "rule")
}
@c @implementation public func lk_shape_layer_get_fill_rule(_ l: OpaquePointer?) -> lk_fill_rule {
    get(l, S.fillRule, LK_FILL_RULE_NON_ZERO) { lk_fill_rule(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_shape_layer_set_stroke_color(_ l: OpaquePointer?, _ c: lk_color) -> lk_status {
    set(l, S.strokeColor, Color?.some(Color(c)))
}
@c @implementation public func lk_shape_layer_get_stroke_color(_ l: OpaquePointer?) -> lk_color {
    get(l, S.strokeColor, lk_color()) { ($0 ?? .clear).lk }
}
@c @implementation public func lk_shape_layer_set_line_width(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, S.lineWidth, v)
}
@c @implementation public func lk_shape_layer_get_line_width(_ l: OpaquePointer?) -> Double {
    get(l, S.lineWidth, 0.0) { $0 }
}
@c @implementation public func lk_shape_layer_set_line_cap(_ l: OpaquePointer?, _ v: lk_line_cap) -> lk_status {
    setNamed(l, S.lineCap, v.rawValue, "cap")
}
@c @implementation public func lk_shape_layer_get_line_cap(_ l: OpaquePointer?) -> lk_line_cap {
    get(l, S.lineCap, LK_LINE_CAP_BUTT) { lk_line_cap(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_shape_layer_set_line_join(_ l: OpaquePointer?, _ v: lk_line_join) -> lk_status {
    setNamed(l, S.lineJoin, v.rawValue, "join")
}
@c @implementation public func lk_shape_layer_get_line_join(_ l: OpaquePointer?) -> lk_line_join {
    get(l, S.lineJoin, LK_LINE_JOIN_MITER) { lk_line_join(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_shape_layer_set_miter_limit(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, S.miterLimit, v)
}
@c @implementation public func lk_shape_layer_get_miter_limit(_ l: OpaquePointer?) -> Double {
    get(l, S.miterLimit, 0.0) { $0 }
}
@c @implementation public func lk_shape_layer_set_line_dash_pattern(_ l: OpaquePointer?, _ lengths: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try layer(l).set(S.lineDashPattern, try list(lengths, count, "lengths") { $0 }) }
}
@c @implementation public func lk_shape_layer_get_line_dash_pattern(_ l: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int {
    get(l, S.lineDashPattern, 0) { copyOut($0, out, capacity) { $0 } }
}
@c @implementation public func lk_shape_layer_set_line_dash_phase(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, S.lineDashPhase, v)
}
@c @implementation public func lk_shape_layer_get_line_dash_phase(_ l: OpaquePointer?) -> Double {
    get(l, S.lineDashPhase, 0.0) { $0 }
}
@c @implementation public func lk_shape_layer_set_stroke_start(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, S.strokeStart, v)
}
@c @implementation public func lk_shape_layer_get_stroke_start(_ l: OpaquePointer?) -> Double {
    get(l, S.strokeStart, 0.0) { $0 }
}
@c @implementation public func lk_shape_layer_set_stroke_end(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, S.strokeEnd, v)
}
@c @implementation public func lk_shape_layer_get_stroke_end(_ l: OpaquePointer?) -> Double {
    get(l, S.strokeEnd, 0.0) { $0 }
}

// MARK: Text

private typealias T = TextProperties

@c @implementation public func lk_text_layer_set_string(_ l: OpaquePointer?, _ utf8: UnsafePointer<CChar>?) -> lk_status {
    run { try layer(l).set(T.string, utf8 == nil ? nil : try string(utf8, "utf8")) }
}
@c @implementation public func lk_text_layer_get_string(_ l: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try layer(l)
        try target.checkKind(.text, "string")
        guard let s = target.get(T.string) else { return nil }
        return CStringCache.shared.pointer(for: s, owner: target, key: "string")
    }
}
@c @implementation public func lk_text_layer_set_font(_ l: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> lk_status {
    // NULL restores the default, as setting font to nil does in Core Animation.
    run { try layer(l).set(T.font, name == nil ? TextState.defaultFont : try string(name, "name")) }
}
@c @implementation public func lk_text_layer_get_font(_ l: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try layer(l)
        try target.checkKind(.text, "font")
        return CStringCache.shared.pointer(for: target.get(T.font), owner: target, key: "font")
    }
}
@c @implementation public func lk_text_layer_set_font_size(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, T.fontSize, v)
}
@c @implementation public func lk_text_layer_get_font_size(_ l: OpaquePointer?) -> Double {
    get(l, T.fontSize, 0.0) { $0 }
}
@c @implementation public func lk_text_layer_set_foreground_color(_ l: OpaquePointer?, _ c: lk_color) -> lk_status {
    set(l, T.foregroundColor, Color?.some(Color(c)))
}
@c @implementation public func lk_text_layer_get_foreground_color(_ l: OpaquePointer?) -> lk_color {
    get(l, T.foregroundColor, lk_color()) { ($0 ?? .clear).lk }
}
@c @implementation public func lk_text_layer_set_alignment_mode(_ l: OpaquePointer?, _ v: lk_text_alignment) -> lk_status {
    setNamed(l, T.alignmentMode, v.rawValue, "mode")
}
@c @implementation public func lk_text_layer_get_alignment_mode(_ l: OpaquePointer?) -> lk_text_alignment {
    get(l, T.alignmentMode, LK_TEXT_ALIGNMENT_NATURAL) { lk_text_alignment(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_text_layer_set_wrapped(_ l: OpaquePointer?, _ v: Bool) -> lk_status {
    set(l, T.wrapped, v)
}
@c @implementation public func lk_text_layer_get_wrapped(_ l: OpaquePointer?) -> Bool {
    get(l, T.wrapped, false) { $0 }
}
@c @implementation public func lk_text_layer_set_truncation_mode(_ l: OpaquePointer?, _ v: lk_truncation_mode) -> lk_status {
    setNamed(l, T.truncationMode, v.rawValue, "mode")
}
@c @implementation public func lk_text_layer_get_truncation_mode(_ l: OpaquePointer?) -> lk_truncation_mode {
    get(l, T.truncationMode, LK_TRUNCATION_NONE) { lk_truncation_mode(rawValue: UInt32($0.rawValue)) }
}

// MARK: Gradient

private typealias G = GradientProperties

@c @implementation public func lk_gradient_layer_set_colors(_ l: OpaquePointer?, _ colors: UnsafePointer<lk_color>?, _ count: Int) -> lk_status {
    run { try layer(l).set(G.colors, try list(colors, count, "colors") { Color($0) }) }
}
@c @implementation public func lk_gradient_layer_get_colors(_ l: OpaquePointer?, _ out: UnsafeMutablePointer<lk_color>?, _ capacity: Int) -> Int {
    get(l, G.colors, 0) { copyOut($0, out, capacity) { $0.lk } }
}
@c @implementation public func lk_gradient_layer_set_locations(_ l: OpaquePointer?, _ locations: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try layer(l).set(G.locations, try list(locations, count, "locations") { $0 }) }
}
@c @implementation public func lk_gradient_layer_get_locations(_ l: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int {
    get(l, G.locations, 0) { copyOut($0, out, capacity) { $0 } }
}
@c @implementation public func lk_gradient_layer_set_start_point(_ l: OpaquePointer?, _ p: lk_point) -> lk_status {
    set(l, G.startPoint, Point(p))
}
@c @implementation public func lk_gradient_layer_get_start_point(_ l: OpaquePointer?) -> lk_point {
    get(l, G.startPoint, lk_point()) { $0.lk }
}
@c @implementation public func lk_gradient_layer_set_end_point(_ l: OpaquePointer?, _ p: lk_point) -> lk_status {
    set(l, G.endPoint, Point(p))
}
@c @implementation public func lk_gradient_layer_get_end_point(_ l: OpaquePointer?) -> lk_point {
    get(l, G.endPoint, lk_point()) { $0.lk }
}
@c @implementation public func lk_gradient_layer_set_type(_ l: OpaquePointer?, _ v: lk_gradient_type) -> lk_status {
    setNamed(l, G.type, v.rawValue, "type")
}
@c @implementation public func lk_gradient_layer_get_type(_ l: OpaquePointer?) -> lk_gradient_type {
    get(l, G.type, LK_GRADIENT_AXIAL) { lk_gradient_type(rawValue: UInt32($0.rawValue)) }
}
