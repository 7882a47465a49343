import CLayerKit
import LayerKitCore

// Coordinate conversion and hit testing (S1.4, S1.5).

private func conversionEnds(_ from: OpaquePointer?, _ to: OpaquePointer?) throws -> (Layer?, Layer?) {
    guard from != nil || to != nil else {
        throw LayerKitError(.invalidArgument, "from, to: both are NULL; at least one must be a layer")
    }
    return (try optionalLayer(from, "from"), try optionalLayer(to, "to"))
}

@c @implementation public func lk_layer_convert_point(_ from: OpaquePointer?, _ p: lk_point, _ to: OpaquePointer?) -> lk_point {
    read(Point.zero.lk) {
        let (a, b) = try conversionEnds(from, to)
        return try Layer.convert(Point(p), from: a, to: b).lk
    }
}

@c @implementation public func lk_layer_convert_rect(_ from: OpaquePointer?, _ r: lk_rect, _ to: OpaquePointer?) -> lk_rect {
    read(Rect.zero.lk) {
        let (a, b) = try conversionEnds(from, to)
        return try Layer.convert(Rect(r), from: a, to: b).lk
    }
}

@c @implementation public func lk_layer_contains_point(_ l: OpaquePointer?, _ p: lk_point) -> Bool {
    read(false) { try layer(l).contains(Point(p)) }
}

@c @implementation public func lk_layer_hit_test(_ root: OpaquePointer?, _ p: lk_point) -> OpaquePointer? {
    read(nil) {
        let tree = try layer(root, "root")
        return borrowed(tree.hitTest(Point(x: try finite(p.x, "p_in_root_superlayer.x"), y: try finite(p.y, "p_in_root_superlayer.y"))))
    }
}
