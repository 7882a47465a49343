import CLayerKit
import LayerKitCore

// Emitter and replicator layers (S7.4, S7.5): typed pairs over their rows of
// the property table. A kind's call on a layer of another kind fails.

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

/// A C enum value as the Swift enumeration, or an error naming the argument.
private func setNamed<E: RawRepresentable<Int32> & PropertyValue>(_ handle: OpaquePointer?, _ property: Property<E>,
                                                                   _ raw: UInt32, _ argument: String) -> lk_status {
    run {
        guard raw <= UInt32(Int32.max), let v = E(rawValue: Int32(raw)) else {
            throw LayerKitError(.invalidArgument, "\(argument): \(raw) is not a valid value")
        }
        try layer(handle).set(property, v)
    }
}

@c @implementation public func lk_emitter_layer_create() -> OpaquePointer? { create { Layer(layerKind: .emitter) } }
@c @implementation public func lk_replicator_layer_create() -> OpaquePointer? { create { Layer(layerKind: .replicator) } }

// MARK: Emitter

private typealias E = EmitterProperties

@c @implementation public func lk_emitter_layer_set_cells(_ l: OpaquePointer?, _ cells: UnsafePointer<OpaquePointer?>?, _ count: Int) -> lk_status {
    run {
        let target = try layer(l)
        let count = try arrayCount(count, "count")
        guard count == 0 || cells != nil else { throw LayerKitError(.invalidArgument, "cells: NULL with count \(count)") }
        var list: [EmitterCell] = []
        for i in 0..<count { list.append(try emitterCell(cells![i], "cells[\(i)]")) }
        try target.setEmitterCells(list)
    }
}
@c @implementation public func lk_emitter_layer_get_cell_count(_ l: OpaquePointer?) -> Int {
    read(0) {
        let target = try layer(l)
        try target.checkKind(.emitter, "emitterCells")
        return target.state.emitter.cells.count
    }
}
@c @implementation public func lk_emitter_layer_get_cell(_ l: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    read(nil) {
        let target = try layer(l)
        try target.checkKind(.emitter, "emitterCells")
        let cells = target.state.emitter.cells
        guard index >= 0, index < cells.count else {
            throw LayerKitError(.invalidArgument, "index: \(UInt(bitPattern: index)) is out of range (the layer has \(cells.count) cells)")
        }
        return borrowed(cells[index])
    }
}
@c @implementation public func lk_emitter_layer_set_emitter_position(_ l: OpaquePointer?, _ p: lk_point) -> lk_status {
    set(l, E.emitterPosition, Point(p))
}
@c @implementation public func lk_emitter_layer_get_emitter_position(_ l: OpaquePointer?) -> lk_point {
    get(l, E.emitterPosition, lk_point()) { $0.lk }
}
@c @implementation public func lk_emitter_layer_set_emitter_z_position(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, E.emitterZPosition, v)
}
@c @implementation public func lk_emitter_layer_get_emitter_z_position(_ l: OpaquePointer?) -> Double {
    get(l, E.emitterZPosition, 0.0) { $0 }
}
@c @implementation public func lk_emitter_layer_set_emitter_size(_ l: OpaquePointer?, _ s: lk_size) -> lk_status {
    set(l, E.emitterSize, Size(s))
}
@c @implementation public func lk_emitter_layer_get_emitter_size(_ l: OpaquePointer?) -> lk_size {
    get(l, E.emitterSize, lk_size()) { $0.lk }
}
@c @implementation public func lk_emitter_layer_set_emitter_depth(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, E.emitterDepth, v)
}
@c @implementation public func lk_emitter_layer_get_emitter_depth(_ l: OpaquePointer?) -> Double {
    get(l, E.emitterDepth, 0.0) { $0 }
}
@c @implementation public func lk_emitter_layer_set_emitter_shape(_ l: OpaquePointer?, _ v: lk_emitter_shape) -> lk_status {
    setNamed(l, E.emitterShape, v.rawValue, "shape")
}
@c @implementation public func lk_emitter_layer_get_emitter_shape(_ l: OpaquePointer?) -> lk_emitter_shape {
    get(l, E.emitterShape, LK_EMITTER_SHAPE_POINT) { lk_emitter_shape(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_emitter_layer_set_emitter_mode(_ l: OpaquePointer?, _ v: lk_emitter_mode) -> lk_status {
    setNamed(l, E.emitterMode, v.rawValue, "mode")
}
@c @implementation public func lk_emitter_layer_get_emitter_mode(_ l: OpaquePointer?) -> lk_emitter_mode {
    get(l, E.emitterMode, LK_EMITTER_MODE_VOLUME) { lk_emitter_mode(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_emitter_layer_set_render_mode(_ l: OpaquePointer?, _ v: lk_emitter_render_mode) -> lk_status {
    setNamed(l, E.renderMode, v.rawValue, "mode")
}
@c @implementation public func lk_emitter_layer_get_render_mode(_ l: OpaquePointer?) -> lk_emitter_render_mode {
    get(l, E.renderMode, LK_EMITTER_RENDER_UNORDERED) { lk_emitter_render_mode(rawValue: UInt32($0.rawValue)) }
}
@c @implementation public func lk_emitter_layer_set_birth_rate(_ l: OpaquePointer?, _ v: Double) -> lk_status { set(l, E.birthRate, v) }
@c @implementation public func lk_emitter_layer_get_birth_rate(_ l: OpaquePointer?) -> Double { get(l, E.birthRate, 0.0) { $0 } }
@c @implementation public func lk_emitter_layer_set_lifetime(_ l: OpaquePointer?, _ v: Double) -> lk_status { set(l, E.lifetime, v) }
@c @implementation public func lk_emitter_layer_get_lifetime(_ l: OpaquePointer?) -> Double { get(l, E.lifetime, 0.0) { $0 } }
@c @implementation public func lk_emitter_layer_set_velocity(_ l: OpaquePointer?, _ v: Double) -> lk_status { set(l, E.velocity, v) }
@c @implementation public func lk_emitter_layer_get_velocity(_ l: OpaquePointer?) -> Double { get(l, E.velocity, 0.0) { $0 } }
@c @implementation public func lk_emitter_layer_set_scale(_ l: OpaquePointer?, _ v: Double) -> lk_status { set(l, E.scale, v) }
@c @implementation public func lk_emitter_layer_get_scale(_ l: OpaquePointer?) -> Double { get(l, E.scale, 0.0) { $0 } }
@c @implementation public func lk_emitter_layer_set_spin(_ l: OpaquePointer?, _ v: Double) -> lk_status { set(l, E.spin, v) }
@c @implementation public func lk_emitter_layer_get_spin(_ l: OpaquePointer?) -> Double { get(l, E.spin, 0.0) { $0 } }
@c @implementation public func lk_emitter_layer_set_seed(_ l: OpaquePointer?, _ v: UInt32) -> lk_status { set(l, E.seed, Double(v)) }
@c @implementation public func lk_emitter_layer_get_seed(_ l: OpaquePointer?) -> UInt32 { get(l, E.seed, UInt32(0)) { UInt32($0) } }
@c @implementation public func lk_emitter_layer_set_preserves_depth(_ l: OpaquePointer?, _ v: Bool) -> lk_status {
    set(l, E.preservesDepth, v)
}
@c @implementation public func lk_emitter_layer_get_preserves_depth(_ l: OpaquePointer?) -> Bool {
    get(l, E.preservesDepth, false) { $0 }
}

// MARK: Replicator

private typealias R = ReplicatorProperties

@c @implementation public func lk_replicator_layer_set_instance_count(_ l: OpaquePointer?, _ count: Int) -> lk_status {
    run {
        // size_t arrives as Int: a count past Int.max is negative here.
        guard count >= 0 else {
            throw LayerKitError(.invalidArgument, "count: \(UInt(bitPattern: count)) is beyond \(Int(ReplicatorState.maximumInstanceCount))")
        }
        try layer(l).set(R.instanceCount, Double(count))
    }
}
@c @implementation public func lk_replicator_layer_get_instance_count(_ l: OpaquePointer?) -> Int {
    // (a presentation copy's may lie beyond 0...10000: the count drawn)
    get(l, R.instanceCount, 0) { ReplicatorState.drawnCount($0) }
}
@c @implementation public func lk_replicator_layer_set_instance_delay(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, R.instanceDelay, v)
}
@c @implementation public func lk_replicator_layer_get_instance_delay(_ l: OpaquePointer?) -> Double {
    get(l, R.instanceDelay, 0.0) { $0 }
}
@c @implementation public func lk_replicator_layer_set_instance_transform(_ l: OpaquePointer?, _ t: lk_transform3d) -> lk_status {
    set(l, R.instanceTransform, Transform3D(t))
}
@c @implementation public func lk_replicator_layer_get_instance_transform(_ l: OpaquePointer?) -> lk_transform3d {
    get(l, R.instanceTransform, Transform3D.identity.lk) { $0.lk }
}
@c @implementation public func lk_replicator_layer_set_instance_color(_ l: OpaquePointer?, _ c: lk_color) -> lk_status {
    set(l, R.instanceColor, Color(c))
}
@c @implementation public func lk_replicator_layer_get_instance_color(_ l: OpaquePointer?) -> lk_color {
    get(l, R.instanceColor, lk_color()) { $0.lk }
}
@c @implementation public func lk_replicator_layer_set_instance_red_offset(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, R.instanceRedOffset, v)
}
@c @implementation public func lk_replicator_layer_get_instance_red_offset(_ l: OpaquePointer?) -> Double {
    get(l, R.instanceRedOffset, 0.0) { $0 }
}
@c @implementation public func lk_replicator_layer_set_instance_green_offset(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, R.instanceGreenOffset, v)
}
@c @implementation public func lk_replicator_layer_get_instance_green_offset(_ l: OpaquePointer?) -> Double {
    get(l, R.instanceGreenOffset, 0.0) { $0 }
}
@c @implementation public func lk_replicator_layer_set_instance_blue_offset(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, R.instanceBlueOffset, v)
}
@c @implementation public func lk_replicator_layer_get_instance_blue_offset(_ l: OpaquePointer?) -> Double {
    get(l, R.instanceBlueOffset, 0.0) { $0 }
}
@c @implementation public func lk_replicator_layer_set_instance_alpha_offset(_ l: OpaquePointer?, _ v: Double) -> lk_status {
    set(l, R.instanceAlphaOffset, v)
}
@c @implementation public func lk_replicator_layer_get_instance_alpha_offset(_ l: OpaquePointer?) -> Double {
    get(l, R.instanceAlphaOffset, 0.0) { $0 }
}
@c @implementation public func lk_replicator_layer_set_preserves_depth(_ l: OpaquePointer?, _ v: Bool) -> lk_status {
    set(l, R.preservesDepth, v)
}
@c @implementation public func lk_replicator_layer_get_preserves_depth(_ l: OpaquePointer?) -> Bool {
    get(l, R.preservesDepth, false) { $0 }
}
