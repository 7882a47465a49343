import CLayerKit
import LayerKitCore

// Layer creation and the hierarchy (S1.3).

@c @implementation public func lk_layer_create() -> OpaquePointer? {
    create { Layer() }
}

@c @implementation public func lk_layer_add_sublayer(_ parent: OpaquePointer?, _ child: OpaquePointer?) -> lk_status {
    run { try layer(parent, "parent").addSublayer(try layer(child, "child")) }
}

@c @implementation public func lk_layer_insert_sublayer(_ parent: OpaquePointer?, _ child: OpaquePointer?, _ index: Int) -> lk_status {
    run { try layer(parent, "parent").insertSublayer(try layer(child, "child"), at: index) }
}

@c @implementation public func lk_layer_insert_sublayer_below(_ parent: OpaquePointer?, _ child: OpaquePointer?, _ sibling: OpaquePointer?) -> lk_status {
    run { try layer(parent, "parent").insertSublayer(try layer(child, "child"), below: try layer(sibling, "sibling")) }
}

@c @implementation public func lk_layer_insert_sublayer_above(_ parent: OpaquePointer?, _ child: OpaquePointer?, _ sibling: OpaquePointer?) -> lk_status {
    run { try layer(parent, "parent").insertSublayer(try layer(child, "child"), above: try layer(sibling, "sibling")) }
}

@c @implementation public func lk_layer_replace_sublayer(_ parent: OpaquePointer?, _ oldChild: OpaquePointer?, _ newChild: OpaquePointer?) -> lk_status {
    run { try layer(parent, "parent").replaceSublayer(try layer(oldChild, "old_child"), with: try layer(newChild, "new_child")) }
}

@c @implementation public func lk_layer_remove_from_superlayer(_ l: OpaquePointer?) -> lk_status {
    run { try layer(l).removeFromSuperlayer() }
}

@c @implementation public func lk_layer_get_superlayer(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try layer(l).superlayer) }
}

@c @implementation public func lk_layer_get_sublayer_count(_ l: OpaquePointer?) -> Int {
    read(0) { try layer(l).sublayers.count }
}

@c @implementation public func lk_layer_get_sublayer(_ l: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    read(nil) {
        let sublayers = try layer(l).sublayers
        guard index >= 0, index < sublayers.count else {
            throw LayerKitError(.invalidArgument, "index: \(UInt(bitPattern: index)) is out of range (the layer has \(sublayers.count) sublayers)")
        }
        return borrowed(sublayers[index])
    }
}
