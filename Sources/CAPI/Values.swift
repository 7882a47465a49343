import CLayerKit
import Glibc
import LayerKitCore

// Value constructors and transform helpers (CATransform3D*).

@c @implementation public func lk_point_make(_ x: Double, _ y: Double) -> lk_point { lk_point(x: x, y: y) }
@c @implementation public func lk_size_make(_ width: Double, _ height: Double) -> lk_size {
    lk_size(width: width, height: height)
}
@c @implementation public func lk_rect_make(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> lk_rect {
    lk_rect(origin: lk_point(x: x, y: y), size: lk_size(width: width, height: height))
}
@c @implementation public func lk_color_make(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> lk_color {
    lk_color(r: r, g: g, b: b, a: a)
}

@c @implementation public func lk_transform3d_identity() -> lk_transform3d { Transform3D.identity.lk }

@c @implementation public func lk_transform3d_make_translation(_ tx: Double, _ ty: Double, _ tz: Double) -> lk_transform3d {
    Transform3D.translation(tx, ty, tz).lk
}

@c @implementation public func lk_transform3d_make_scale(_ sx: Double, _ sy: Double, _ sz: Double) -> lk_transform3d {
    Transform3D.scale(sx, sy, sz).lk
}

@c @implementation public func lk_transform3d_make_rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> lk_transform3d {
    Transform3D.rotation(angle, x, y, z).lk
}

@c @implementation public func lk_transform3d_translate(_ t: lk_transform3d, _ tx: Double, _ ty: Double, _ tz: Double) -> lk_transform3d {
    Transform3D.translation(tx, ty, tz).concatenating(Transform3D(t)).lk
}

@c @implementation public func lk_transform3d_scale(_ t: lk_transform3d, _ sx: Double, _ sy: Double, _ sz: Double) -> lk_transform3d {
    Transform3D.scale(sx, sy, sz).concatenating(Transform3D(t)).lk
}

@c @implementation public func lk_transform3d_rotate(_ t: lk_transform3d, _ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> lk_transform3d {
    Transform3D.rotation(angle, x, y, z).concatenating(Transform3D(t)).lk
}

@c @implementation public func lk_transform3d_concat(_ a: lk_transform3d, _ b: lk_transform3d) -> lk_transform3d {
    Transform3D(a).concatenating(Transform3D(b)).lk
}

@c @implementation public func lk_transform3d_invert(_ t: lk_transform3d, _ out: UnsafeMutablePointer<lk_transform3d>?) -> Bool {
    guard let inverse = Transform3D(t).inverted else {
        setLastError(LayerKitError(.invalidArgument, "t: the transform is singular and has no inverse"))
        return false
    }
    out?.pointee = inverse.lk
    return true
}

@c @implementation public func lk_transform3d_is_identity(_ t: lk_transform3d) -> Bool { Transform3D(t).isIdentity }

@c @implementation public func lk_transform3d_equal(_ a: lk_transform3d, _ b: lk_transform3d) -> Bool {
    Transform3D(a) == Transform3D(b)
}

@c @implementation public func lk_transform3d_make_affine(_ m: lk_affine) -> lk_transform3d {
    Transform3D(affine: AffineTransform(m)).lk
}

@c @implementation public func lk_transform3d_is_affine(_ t: lk_transform3d) -> Bool { Transform3D(t).isAffine }

@c @implementation public func lk_transform3d_get_affine(_ t: lk_transform3d) -> lk_affine { Transform3D(t).affine.lk }

// lk_value constructors: objects are borrowed, strings are not copied (the
// callee copies what it keeps).

@c @implementation public func lk_value_none() -> lk_value { lk_value() }

@c @implementation public func lk_value_number(_ number: Double) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_NUMBER; v.as.number = number; return v
}
@c @implementation public func lk_value_bool(_ boolean: Bool) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_BOOL; v.as.boolean = boolean; return v
}
@c @implementation public func lk_value_point(_ point: lk_point) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_POINT; v.as.point = point; return v
}
@c @implementation public func lk_value_size(_ size: lk_size) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_SIZE; v.as.size = size; return v
}
@c @implementation public func lk_value_rect(_ rect: lk_rect) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_RECT; v.as.rect = rect; return v
}
@c @implementation public func lk_value_color(_ color: lk_color) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_COLOR; v.as.color = color; return v
}
@c @implementation public func lk_value_transform(_ transform: lk_transform3d) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_TRANSFORM; v.as.transform = transform; return v
}
@c @implementation public func lk_value_image(_ image: OpaquePointer?) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_IMAGE; v.as.image = image; return v
}
@c @implementation public func lk_value_path(_ path: OpaquePointer?) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_PATH; v.as.path = path; return v
}
@c @implementation public func lk_value_string(_ utf8: UnsafePointer<CChar>?) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_STRING; v.as.string = utf8; return v
}
@c @implementation public func lk_value_layer(_ layer: OpaquePointer?) -> lk_value {
    var v = lk_value(); v.type = LK_VALUE_LAYER; v.as.layer = layer; return v
}
