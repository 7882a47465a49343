import CLayerKit
import LayerKitCore

// C value structs <-> Swift values.

extension Point {
    init(_ c: lk_point) { self.init(x: c.x, y: c.y) }
    var lk: lk_point { lk_point(x: x, y: y) }
}

extension Size {
    init(_ c: lk_size) { self.init(width: c.width, height: c.height) }
    var lk: lk_size { lk_size(width: width, height: height) }
}

extension Rect {
    init(_ c: lk_rect) { self.init(origin: Point(c.origin), size: Size(c.size)) }
    var lk: lk_rect { lk_rect(origin: origin.lk, size: size.lk) }
}

extension Color {
    init(_ c: lk_color) { self.init(r: c.r, g: c.g, b: c.b, a: c.a) }
    var lk: lk_color { lk_color(r: r, g: g, b: b, a: a) }
}

extension Transform3D {
    init(_ c: lk_transform3d) {
        self.init([c.m11, c.m12, c.m13, c.m14, c.m21, c.m22, c.m23, c.m24,
                   c.m31, c.m32, c.m33, c.m34, c.m41, c.m42, c.m43, c.m44])
    }

    var lk: lk_transform3d {
        lk_transform3d(m11: m11, m12: m12, m13: m13, m14: m14, m21: m21, m22: m22, m23: m23, m24: m24,
                       m31: m31, m32: m32, m33: m33, m34: m34, m41: m41, m42: m42, m43: m43, m44: m44)
    }
}

extension AffineTransform {
    init(_ c: lk_affine) { self.init(a: c.a, b: c.b, c: c.c, d: c.d, tx: c.tx, ty: c.ty) }
    var lk: lk_affine { lk_affine(a: a, b: b, c: c, d: d, tx: tx, ty: ty) }
}

// MARK: lk_value

/// An lk_value from the program as a Value; objects are checked handles.
func value(from v: lk_value, _ argument: String) throws(LayerKitError) -> Value {
    switch v.type {
    case LK_VALUE_NONE: return .none
    case LK_VALUE_NUMBER: return .number(v.as.number)
    case LK_VALUE_BOOL: return .bool(v.as.boolean)
    case LK_VALUE_POINT: return .point(Point(v.as.point))
    case LK_VALUE_SIZE: return .size(Size(v.as.size))
    case LK_VALUE_RECT: return .rect(Rect(v.as.rect))
    case LK_VALUE_COLOR: return .color(Color(v.as.color))
    case LK_VALUE_TRANSFORM: return .transform(Transform3D(v.as.transform))
    case LK_VALUE_IMAGE:
        guard v.as.image != nil else { return .none }
        return .image(try image(v.as.image, "\(argument).as.image"))
    case LK_VALUE_PATH:
        guard v.as.path != nil else { return .none }
        return .path(try path(v.as.path, "\(argument).as.path").frozen())   // (a value keeps the path as it is now)
    case LK_VALUE_STRING:
        guard v.as.string != nil else { return .none }
        return .string(try string(v.as.string, "\(argument).as.string"))
    case LK_VALUE_LAYER:
        guard v.as.layer != nil else { return .none }
        return .layer(try layer(v.as.layer, "\(argument).as.layer"))
    default:
        throw LayerKitError(.invalidArgument, "\(argument).type: \(v.type.rawValue) is not an lk_value_type")
    }
}

/// value(from:_:) refusing NaN and infinity anywhere in it (S8.1): an
/// animation's from, to, by and keyframe values.
func finiteValue(from v: lk_value, _ argument: String) throws(LayerKitError) -> Value {
    let converted = try value(from: v, argument)
    guard converted.isFinite else {
        throw LayerKitError(.invalidArgument, "\(argument): holds a number that is not finite (NaN or infinity)")
    }
    return converted
}

/// A Value for the program; strings point into storage kept with `owner`
/// under `key` (valid until that value changes or the owner goes).
func cValue(_ value: Value, owner: Object, key: String) -> lk_value {
    var v = lk_value()
    switch value {
    case .none: v.type = LK_VALUE_NONE
    case .number(let n): v.type = LK_VALUE_NUMBER; v.as.number = n
    case .bool(let b): v.type = LK_VALUE_BOOL; v.as.boolean = b
    case .point(let p): v.type = LK_VALUE_POINT; v.as.point = p.lk
    case .size(let s): v.type = LK_VALUE_SIZE; v.as.size = s.lk
    case .rect(let r): v.type = LK_VALUE_RECT; v.as.rect = r.lk
    case .color(let c): v.type = LK_VALUE_COLOR; v.as.color = c.lk
    case .transform(let t): v.type = LK_VALUE_TRANSFORM; v.as.transform = t.lk
    case .image(let i): v.type = LK_VALUE_IMAGE; v.as.image = borrowed(i)
    case .path(let p): v.type = LK_VALUE_PATH; v.as.path = borrowed(p)
    case .layer(let l): v.type = LK_VALUE_LAYER; v.as.layer = borrowed(l)
    case .list:
        // lk_value has no list; lk_layer_get_value refuses lists before this.
        v.type = LK_VALUE_NONE
    case .string(let s):
        v.type = LK_VALUE_STRING
        v.as.string = CStringCache.shared.pointer(for: s, owner: owner, key: key)
    }
    return v
}

func valueType(_ t: ValueType) -> lk_value_type { lk_value_type(rawValue: UInt32(t.rawValue)) }
