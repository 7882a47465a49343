import CLayerKit
import LayerKitCore

// One typed get/set pair per property of S1.1, each a line over the
// property table: validation, defaults and change tracking live there.

private func set<T>(_ handle: OpaquePointer?, _ property: Property<T>, _ value: T) -> lk_status {
    run { try layer(handle).set(property, value) }
}

private func get<T, R>(_ handle: OpaquePointer?, _ property: Property<T>, _ zero: R, _ convert: (T) -> R) -> R {
    read(zero) { convert(try layer(handle).get(property)) }
}

@c @implementation public func lk_layer_set_bounds(_ layer: OpaquePointer?, _ v: lk_rect) -> lk_status {
    set(layer, LayerProperties.bounds, Rect(v))
}
@c @implementation public func lk_layer_get_bounds(_ layer: OpaquePointer?) -> lk_rect {
    get(layer, LayerProperties.bounds, Rect.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_position(_ layer: OpaquePointer?, _ v: lk_point) -> lk_status {
    set(layer, LayerProperties.position, Point(v))
}
@c @implementation public func lk_layer_get_position(_ layer: OpaquePointer?) -> lk_point {
    get(layer, LayerProperties.position, Point.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_anchor_point(_ layer: OpaquePointer?, _ v: lk_point) -> lk_status {
    set(layer, LayerProperties.anchorPoint, Point(v))
}
@c @implementation public func lk_layer_get_anchor_point(_ layer: OpaquePointer?) -> lk_point {
    get(layer, LayerProperties.anchorPoint, Point.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_anchor_point_z(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.anchorPointZ, v)
}
@c @implementation public func lk_layer_get_anchor_point_z(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.anchorPointZ, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_z_position(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.zPosition, v)
}
@c @implementation public func lk_layer_get_z_position(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.zPosition, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_transform(_ layer: OpaquePointer?, _ v: lk_transform3d) -> lk_status {
    set(layer, LayerProperties.transform, Transform3D(v))
}
@c @implementation public func lk_layer_get_transform(_ layer: OpaquePointer?) -> lk_transform3d {
    get(layer, LayerProperties.transform, lk_transform3d()) { $0.lk }
}

@c @implementation public func lk_layer_set_sublayer_transform(_ layer: OpaquePointer?, _ v: lk_transform3d) -> lk_status {
    set(layer, LayerProperties.sublayerTransform, Transform3D(v))
}
@c @implementation public func lk_layer_get_sublayer_transform(_ layer: OpaquePointer?) -> lk_transform3d {
    get(layer, LayerProperties.sublayerTransform, lk_transform3d()) { $0.lk }
}

@c @implementation public func lk_layer_set_opacity(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.opacity, v)
}
@c @implementation public func lk_layer_get_opacity(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.opacity, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_hidden(_ layer: OpaquePointer?, _ v: Bool) -> lk_status {
    set(layer, LayerProperties.hidden, v)
}
@c @implementation public func lk_layer_get_hidden(_ layer: OpaquePointer?) -> Bool {
    get(layer, LayerProperties.hidden, false) { $0 }
}

@c @implementation public func lk_layer_set_background_color(_ layer: OpaquePointer?, _ v: lk_color) -> lk_status {
    // "a colour with alpha 0 is none" (the header): stored as none, so
    // setting another clear colour is no change and runs no action (S3.6)
    set(layer, LayerProperties.backgroundColor, v.a == 0 ? nil : Color?.some(Color(v)))
}
@c @implementation public func lk_layer_get_background_color(_ layer: OpaquePointer?) -> lk_color {
    get(layer, LayerProperties.backgroundColor, Color.clear.lk) { ($0 ?? Color.clear).lk }
}

@c @implementation public func lk_layer_set_border_color(_ layer: OpaquePointer?, _ v: lk_color) -> lk_status {
    set(layer, LayerProperties.borderColor, Color(v))
}
@c @implementation public func lk_layer_get_border_color(_ layer: OpaquePointer?) -> lk_color {
    get(layer, LayerProperties.borderColor, Color.clear.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_border_width(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.borderWidth, v)
}
@c @implementation public func lk_layer_get_border_width(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.borderWidth, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_corner_radius(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.cornerRadius, v)
}
@c @implementation public func lk_layer_get_corner_radius(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.cornerRadius, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_allows_group_opacity(_ layer: OpaquePointer?, _ v: Bool) -> lk_status {
    set(layer, LayerProperties.allowsGroupOpacity, v)
}
@c @implementation public func lk_layer_get_allows_group_opacity(_ layer: OpaquePointer?) -> Bool {
    get(layer, LayerProperties.allowsGroupOpacity, false) { $0 }
}

@c @implementation public func lk_layer_set_masks_to_bounds(_ layer: OpaquePointer?, _ v: Bool) -> lk_status {
    set(layer, LayerProperties.masksToBounds, v)
}
@c @implementation public func lk_layer_get_masks_to_bounds(_ layer: OpaquePointer?) -> Bool {
    get(layer, LayerProperties.masksToBounds, false) { $0 }
}

@c @implementation public func lk_layer_set_double_sided(_ layer: OpaquePointer?, _ v: Bool) -> lk_status {
    set(layer, LayerProperties.doubleSided, v)
}
@c @implementation public func lk_layer_get_double_sided(_ layer: OpaquePointer?) -> Bool {
    get(layer, LayerProperties.doubleSided, false) { $0 }
}

@c @implementation public func lk_layer_set_shadow_color(_ layer: OpaquePointer?, _ v: lk_color) -> lk_status {
    set(layer, LayerProperties.shadowColor, Color(v))
}
@c @implementation public func lk_layer_get_shadow_color(_ layer: OpaquePointer?) -> lk_color {
    get(layer, LayerProperties.shadowColor, Color.clear.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_shadow_opacity(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.shadowOpacity, v)
}
@c @implementation public func lk_layer_get_shadow_opacity(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.shadowOpacity, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_shadow_offset(_ layer: OpaquePointer?, _ v: lk_size) -> lk_status {
    set(layer, LayerProperties.shadowOffset, Size(v))
}
@c @implementation public func lk_layer_get_shadow_offset(_ layer: OpaquePointer?) -> lk_size {
    get(layer, LayerProperties.shadowOffset, Size.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_shadow_radius(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.shadowRadius, v)
}
@c @implementation public func lk_layer_get_shadow_radius(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.shadowRadius, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_contents_rect(_ layer: OpaquePointer?, _ v: lk_rect) -> lk_status {
    set(layer, LayerProperties.contentsRect, Rect(v))
}
@c @implementation public func lk_layer_get_contents_rect(_ layer: OpaquePointer?) -> lk_rect {
    get(layer, LayerProperties.contentsRect, Rect.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_contents_center(_ layer: OpaquePointer?, _ v: lk_rect) -> lk_status {
    set(layer, LayerProperties.contentsCenter, Rect(v))
}
@c @implementation public func lk_layer_get_contents_center(_ layer: OpaquePointer?) -> lk_rect {
    get(layer, LayerProperties.contentsCenter, Rect.zero.lk) { $0.lk }
}

@c @implementation public func lk_layer_set_contents_scale(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.contentsScale, v)
}
@c @implementation public func lk_layer_get_contents_scale(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.contentsScale, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_begin_time(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.beginTime, v)
}
@c @implementation public func lk_layer_get_begin_time(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.beginTime, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_duration(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.duration, v)
}
@c @implementation public func lk_layer_get_duration(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.duration, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_speed(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.speed, v)
}
@c @implementation public func lk_layer_get_speed(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.speed, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_time_offset(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.timeOffset, v)
}
@c @implementation public func lk_layer_get_time_offset(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.timeOffset, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_repeat_count(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.repeatCount, v)
}
@c @implementation public func lk_layer_get_repeat_count(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.repeatCount, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_repeat_duration(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.repeatDuration, v)
}
@c @implementation public func lk_layer_get_repeat_duration(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.repeatDuration, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_autoreverses(_ layer: OpaquePointer?, _ v: Bool) -> lk_status {
    set(layer, LayerProperties.autoreverses, v)
}
@c @implementation public func lk_layer_get_autoreverses(_ layer: OpaquePointer?) -> Bool {
    get(layer, LayerProperties.autoreverses, false) { $0 }
}

// Properties whose C form differs from the stored one.

@c @implementation public func lk_layer_set_frame(_ l: OpaquePointer?, _ r: lk_rect) -> lk_status {
    run { try layer(l).setFrame(Rect(r)) }
}
@c @implementation public func lk_layer_get_frame(_ l: OpaquePointer?) -> lk_rect {
    read(Rect.zero.lk) { try layer(l).frame.lk }
}

@c @implementation public func lk_layer_set_affine_transform(_ layer: OpaquePointer?, _ m: lk_affine) -> lk_status {
    set(layer, LayerProperties.transform, Transform3D(affine: AffineTransform(m)))
}
@c @implementation public func lk_layer_get_affine_transform(_ layer: OpaquePointer?) -> lk_affine {
    get(layer, LayerProperties.transform, lk_affine()) { $0.affine.lk }
}

@c @implementation public func lk_layer_set_shadow_path(_ l: OpaquePointer?, _ p: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        let shape = p == nil ? nil : try path(p, "path")
        try target.set(LayerProperties.shadowPath, shape)
    }
}
@c @implementation public func lk_layer_get_shadow_path(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try layer(l).get(LayerProperties.shadowPath)) }
}

@c @implementation public func lk_layer_set_contents(_ l: OpaquePointer?, _ i: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        let contents = i == nil ? nil : try image(i)
        try target.set(LayerProperties.contents, contents)
    }
}
@c @implementation public func lk_layer_get_contents(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try layer(l).get(LayerProperties.contents)) }
}

@c @implementation public func lk_layer_set_contents_gravity(_ l: OpaquePointer?, _ g: lk_contents_gravity) -> lk_status {
    run {
        let target = try layer(l)
        guard let gravity = ContentsGravity(rawValue: Int32(bitPattern: g.rawValue)) else {
            throw LayerKitError(.invalidArgument, "g: \(g.rawValue) is not an lk_contents_gravity")
        }
        try target.set(LayerProperties.contentsGravity, gravity)
    }
}
@c @implementation public func lk_layer_get_contents_gravity(_ l: OpaquePointer?) -> lk_contents_gravity {
    read(LK_GRAVITY_RESIZE) {
        lk_contents_gravity(rawValue: UInt32(try layer(l).get(LayerProperties.contentsGravity).rawValue))
    }
}

@c @implementation public func lk_layer_set_fill_mode(_ l: OpaquePointer?, _ m: lk_fill_mode) -> lk_status {
    run {
        let target = try layer(l)
        guard let mode = FillMode(rawValue: Int32(bitPattern: m.rawValue)) else {
            throw LayerKitError(.invalidArgument, "mode: \(m.rawValue) is not an lk_fill_mode")
        }
        try target.set(LayerProperties.fillMode, mode)
    }
}
@c @implementation public func lk_layer_get_fill_mode(_ l: OpaquePointer?) -> lk_fill_mode {
    read(LK_FILL_REMOVED) { lk_fill_mode(rawValue: UInt32(try layer(l).get(LayerProperties.fillMode).rawValue)) }
}

/// An lk_contents_filter argument as a ContentsFilter; `name` for the message.
func contentsFilter(_ f: lk_contents_filter, _ name: String) throws(LayerKitError) -> ContentsFilter {
    guard let filter = ContentsFilter(rawValue: Int32(bitPattern: f.rawValue)) else {
        throw LayerKitError(.invalidArgument, "\(name): \(f.rawValue) is not an lk_contents_filter")
    }
    return filter
}

@c @implementation public func lk_layer_set_magnification_filter(_ l: OpaquePointer?, _ f: lk_contents_filter) -> lk_status {
    run {
        let target = try layer(l)
        try target.set(LayerProperties.magnificationFilter, try contentsFilter(f, "filter"))
    }
}
@c @implementation public func lk_layer_get_magnification_filter(_ l: OpaquePointer?) -> lk_contents_filter {
    read(LK_CONTENTS_FILTER_LINEAR) {
        lk_contents_filter(rawValue: UInt32(try layer(l).get(LayerProperties.magnificationFilter).rawValue))
    }
}
@c @implementation public func lk_layer_set_minification_filter(_ l: OpaquePointer?, _ f: lk_contents_filter) -> lk_status {
    run {
        let target = try layer(l)
        try target.set(LayerProperties.minificationFilter, try contentsFilter(f, "filter"))
    }
}
@c @implementation public func lk_layer_get_minification_filter(_ l: OpaquePointer?) -> lk_contents_filter {
    read(LK_CONTENTS_FILTER_LINEAR) {
        lk_contents_filter(rawValue: UInt32(try layer(l).get(LayerProperties.minificationFilter).rawValue))
    }
}
@c @implementation public func lk_layer_set_minification_filter_bias(_ layer: OpaquePointer?, _ v: Double) -> lk_status {
    set(layer, LayerProperties.minificationFilterBias, v)
}
@c @implementation public func lk_layer_get_minification_filter_bias(_ layer: OpaquePointer?) -> Double {
    get(layer, LayerProperties.minificationFilterBias, 0.0) { $0 }
}

@c @implementation public func lk_layer_set_mask(_ l: OpaquePointer?, _ m: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        try target.setMask(try optionalLayer(m, "mask"))
    }
}
@c @implementation public func lk_layer_get_mask(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try layer(l).get(LayerProperties.mask)) }
}

@c @implementation public func lk_layer_set_name(_ l: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try layer(l)
        try target.set(LayerProperties.name, name == nil ? nil : try string(name, "name"))
    }
}
@c @implementation public func lk_layer_get_name(_ l: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try layer(l)
        return target.get(LayerProperties.name).map { CStringCache.shared.pointer(for: $0, owner: target, key: "name") }
    }
}
