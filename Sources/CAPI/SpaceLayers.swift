import CLayerKit
import LayerKitCore

// Transform, scroll and tiled layers (S7.6-S7.8): typed pairs over their
// rows of the property table, and the scrolling calls.

@c @implementation public func lk_transform_layer_create() -> OpaquePointer? { create { Layer(layerKind: .transform) } }
@c @implementation public func lk_scroll_layer_create() -> OpaquePointer? { create { Layer(layerKind: .scroll) } }
@c @implementation public func lk_tiled_layer_create() -> OpaquePointer? { create { Layer(layerKind: .tiled) } }

private func kindValue<T, R>(_ handle: OpaquePointer?, _ property: Property<T>, _ zero: R, _ convert: (T) -> R) -> R {
    read(zero) {
        let target = try layer(handle)
        try target.checkKind(property.kind, property.key)
        return convert(target.get(property))
    }
}

/// A size_t count as the table's number, refusing what no double holds
/// exactly: past the largest count of the table, tileCacheLimit's (the rows
/// check their own, smaller bounds).
private func count(_ v: Int, _ argument: String) throws(LayerKitError) -> Double {
    guard v >= 0, v <= Int(TiledProperties.maxTileCacheLimit) else {
        throw LayerKitError(.invalidArgument,
                            "\(argument): \(UInt(bitPattern: v)) is beyond 2^52, the largest count a layer takes")
    }
    return Double(v)
}

// MARK: Scroll

@c @implementation public func lk_scroll_layer_set_scroll_mode(_ l: OpaquePointer?, _ mode: lk_scroll_mode) -> lk_status {
    run {
        guard mode.rawValue <= UInt32(Int32.max), let m = ScrollMode(rawValue: Int32(mode.rawValue)) else {
            throw LayerKitError(.invalidArgument, "mode: \(mode.rawValue) is not a valid value")
        }
        try layer(l).set(ScrollProperties.scrollMode, m)
    }
}
@c @implementation public func lk_scroll_layer_get_scroll_mode(_ l: OpaquePointer?) -> lk_scroll_mode {
    kindValue(l, ScrollProperties.scrollMode, LK_SCROLL_NONE) { lk_scroll_mode(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_scroll_layer_scroll_to_point(_ l: OpaquePointer?, _ p: lk_point) -> lk_status {
    run { try layer(l).scroll(toPoint: Point(p)) }
}
@c @implementation public func lk_scroll_layer_scroll_to_rect(_ l: OpaquePointer?, _ r: lk_rect) -> lk_status {
    run { try layer(l).scroll(toRect: Rect(r)) }
}
@c @implementation public func lk_layer_scroll_point(_ l: OpaquePointer?, _ p: lk_point) -> lk_status {
    run { try layer(l).scrollPoint(Point(p)) }
}
@c @implementation public func lk_layer_scroll_rect_to_visible(_ l: OpaquePointer?, _ r: lk_rect) -> lk_status {
    run { try layer(l).scrollRectToVisible(Rect(r)) }
}
@c @implementation public func lk_layer_get_visible_rect(_ l: OpaquePointer?) -> lk_rect {
    read(Rect.zero.lk) { try layer(l).visibleRect.lk }
}

// MARK: Tiled

private typealias TP = TiledProperties

@c @implementation public func lk_tiled_layer_set_tile_size(_ l: OpaquePointer?, _ s: lk_size) -> lk_status {
    run { try layer(l).set(TP.tileSize, Size(s)) }
}
@c @implementation public func lk_tiled_layer_get_tile_size(_ l: OpaquePointer?) -> lk_size {
    kindValue(l, TP.tileSize, Size.zero.lk) { $0.lk }
}
@c @implementation public func lk_tiled_layer_set_levels_of_detail(_ l: OpaquePointer?, _ v: Int) -> lk_status {
    run { try layer(l).set(TP.levelsOfDetail, try count(v, "levels")) }
}
@c @implementation public func lk_tiled_layer_get_levels_of_detail(_ l: OpaquePointer?) -> Int {
    kindValue(l, TP.levelsOfDetail, 0) { Int($0) }
}
@c @implementation public func lk_tiled_layer_set_levels_of_detail_bias(_ l: OpaquePointer?, _ v: Int) -> lk_status {
    run { try layer(l).set(TP.levelsOfDetailBias, try count(v, "bias")) }
}
@c @implementation public func lk_tiled_layer_get_levels_of_detail_bias(_ l: OpaquePointer?) -> Int {
    kindValue(l, TP.levelsOfDetailBias, 0) { Int($0) }
}
@c @implementation public func lk_tiled_layer_set_tile_cache_limit(_ l: OpaquePointer?, _ v: Int) -> lk_status {
    run { try layer(l).set(TP.tileCacheLimit, try count(v, "bytes")) }
}
@c @implementation public func lk_tiled_layer_get_tile_cache_limit(_ l: OpaquePointer?) -> Int {
    kindValue(l, TP.tileCacheLimit, 0) { Int($0) }
}
@c @implementation public func lk_layer_set_needs_display_in_rect(_ l: OpaquePointer?, _ r: lk_rect) -> lk_status {
    run { try layer(l).setNeedsDisplay(in: Rect(r)) }
}
