import CLayerKit
import LayerKitCore

// Emitter cells (S7.4): objects of their own, with one typed pair per
// property over the cell property table (validation lives there), key
// paths that reach sub-cells by name, and sub-cell arrays.

func emitterCell(_ handle: OpaquePointer?, _ argument: String = "cell") throws(LayerKitError) -> EmitterCell {
    try object(handle, argument, .emitterCell, as: EmitterCell.self)
}

private func set(_ handle: OpaquePointer?, _ property: EmitterCellProperty, _ value: Value) -> lk_status {
    run { try property.set(on: try emitterCell(handle), value) }
}

private func get<R>(_ handle: OpaquePointer?, _ property: EmitterCellProperty, _ zero: R, _ convert: (Value) -> R) -> R {
    read(zero) { convert(property.get(from: try emitterCell(handle))) }
}

@c @implementation public func lk_emitter_cell_create() -> OpaquePointer? {
    create { EmitterCell() }
}

@c @implementation public func lk_emitter_cell_copy(_ cell: OpaquePointer?) -> OpaquePointer? {
    create { try emitterCell(cell).copy() }
}

@c @implementation public func lk_emitter_cell_set_value(_ cell: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?, _ v: lk_value) -> lk_status {
    run {
        let target = try emitterCell(cell)
        let key = try string(keyPath, "key_path")
        try target.setValue(try value(from: v, "v"), forKeyPath: key)
    }
}

@c @implementation public func lk_emitter_cell_get_value(_ cell: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    run {
        let target = try emitterCell(cell)
        let key = try string(keyPath, "key_path")
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        out.pointee = cValue(try target.value(forKeyPath: key), owner: target, key: "keyPath:" + key)
    }
}

@c @implementation public func lk_emitter_cell_get_value_type(_ cell: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?) -> lk_value_type {
    read(LK_VALUE_NONE) {
        let target = try emitterCell(cell)
        return valueType(try target.valueType(forKeyPath: try string(keyPath, "key_path")))
    }
}

@c @implementation public func lk_emitter_cell_set_cells(_ cell: OpaquePointer?, _ cells: UnsafePointer<OpaquePointer?>?, _ count: Int) -> lk_status {
    run {
        let target = try emitterCell(cell)
        let count = try arrayCount(count, "count")
        guard count == 0 || cells != nil else { throw LayerKitError(.invalidArgument, "cells: NULL with count \(count)") }
        var list: [EmitterCell] = []
        for i in 0..<count { list.append(try emitterCell(cells![i], "cells[\(i)]")) }
        try target.setEmitterCells(list)
    }
}

@c @implementation public func lk_emitter_cell_get_cell_count(_ cell: OpaquePointer?) -> Int {
    read(0) { try emitterCell(cell).emitterCells.count }
}

@c @implementation public func lk_emitter_cell_get_cell(_ cell: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    read(nil) {
        let cells = try emitterCell(cell).emitterCells
        guard index >= 0, index < cells.count else {
            throw LayerKitError(.invalidArgument, "index: \(UInt(bitPattern: index)) is out of range (the cell has \(cells.count) sub-cells)")
        }
        return borrowed(cells[index])
    }
}

@c @implementation public func lk_emitter_cell_set_name(_ cell: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try emitterCell(cell)
        try EmitterCellProperties.name.set(on: target, name == nil ? .none : .string(try string(name, "name")))
    }
}

@c @implementation public func lk_emitter_cell_get_name(_ cell: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try emitterCell(cell)
        guard let name = target.name else { return nil }
        return CStringCache.shared.pointer(for: name, owner: target, key: "name")
    }
}

@c @implementation public func lk_emitter_cell_set_enabled(_ cell: OpaquePointer?, _ v: Bool) -> lk_status {
    set(cell, EmitterCellProperties.enabled, .bool(v))
}
@c @implementation public func lk_emitter_cell_get_enabled(_ cell: OpaquePointer?) -> Bool {
    get(cell, EmitterCellProperties.enabled, false) { if case .bool(let b) = $0 { b } else { false } }
}

@c @implementation public func lk_emitter_cell_set_color(_ cell: OpaquePointer?, _ v: lk_color) -> lk_status {
    set(cell, EmitterCellProperties.color, .color(Color(v)))
}
@c @implementation public func lk_emitter_cell_get_color(_ cell: OpaquePointer?) -> lk_color {
    get(cell, EmitterCellProperties.color, Color.clear.lk) { if case .color(let c) = $0 { c.lk } else { Color.clear.lk } }
}

@c @implementation public func lk_emitter_cell_set_contents(_ cell: OpaquePointer?, _ image: OpaquePointer?) -> lk_status {
    run {
        let target = try emitterCell(cell)
        let contents: Value = image == nil ? .none : .image(try LayerKitCAPI.image(image, "image"))
        try EmitterCellProperties.contents.set(on: target, contents)
    }
}
@c @implementation public func lk_emitter_cell_get_contents(_ cell: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try emitterCell(cell).contents) }
}

@c @implementation public func lk_emitter_cell_set_contents_rect(_ cell: OpaquePointer?, _ v: lk_rect) -> lk_status {
    set(cell, EmitterCellProperties.contentsRect, .rect(Rect(v)))
}
@c @implementation public func lk_emitter_cell_get_contents_rect(_ cell: OpaquePointer?) -> lk_rect {
    get(cell, EmitterCellProperties.contentsRect, Rect.zero.lk) { if case .rect(let r) = $0 { r.lk } else { Rect.zero.lk } }
}

@c @implementation public func lk_emitter_cell_set_contents_scale(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.contentsScale, .number(v))
}
@c @implementation public func lk_emitter_cell_get_contents_scale(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.contentsScale, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_magnification_filter(_ cell: OpaquePointer?, _ f: lk_contents_filter) -> lk_status {
    run {
        let target = try emitterCell(cell)
        try EmitterCellProperties.magnificationFilter.set(on: target, .string(try contentsFilter(f, "filter").name))
    }
}
@c @implementation public func lk_emitter_cell_get_magnification_filter(_ cell: OpaquePointer?) -> lk_contents_filter {
    read(LK_CONTENTS_FILTER_LINEAR) {
        lk_contents_filter(rawValue: UInt32(try emitterCell(cell).attributes.magnificationFilter.rawValue))
    }
}
@c @implementation public func lk_emitter_cell_set_minification_filter(_ cell: OpaquePointer?, _ f: lk_contents_filter) -> lk_status {
    run {
        let target = try emitterCell(cell)
        try EmitterCellProperties.minificationFilter.set(on: target, .string(try contentsFilter(f, "filter").name))
    }
}
@c @implementation public func lk_emitter_cell_get_minification_filter(_ cell: OpaquePointer?) -> lk_contents_filter {
    read(LK_CONTENTS_FILTER_LINEAR) {
        lk_contents_filter(rawValue: UInt32(try emitterCell(cell).attributes.minificationFilter.rawValue))
    }
}
@c @implementation public func lk_emitter_cell_set_minification_filter_bias(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.minificationFilterBias, .number(v))
}
@c @implementation public func lk_emitter_cell_get_minification_filter_bias(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.minificationFilterBias, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_autoreverses(_ cell: OpaquePointer?, _ v: Bool) -> lk_status {
    set(cell, EmitterCellProperties.autoreverses, .bool(v))
}
@c @implementation public func lk_emitter_cell_get_autoreverses(_ cell: OpaquePointer?) -> Bool {
    get(cell, EmitterCellProperties.autoreverses, false) { if case .bool(let b) = $0 { b } else { false } }
}

@c @implementation public func lk_emitter_cell_set_fill_mode(_ cell: OpaquePointer?, _ mode: lk_fill_mode) -> lk_status {
    run {
        let target = try emitterCell(cell)
        guard let m = FillMode(rawValue: Int32(bitPattern: mode.rawValue)) else {
            throw LayerKitError(.invalidArgument, "mode: \(mode.rawValue) is not an lk_fill_mode")
        }
        try EmitterCellProperties.fillMode.set(on: target, .string(m.name))
    }
}
@c @implementation public func lk_emitter_cell_get_fill_mode(_ cell: OpaquePointer?) -> lk_fill_mode {
    read(LK_FILL_REMOVED) { lk_fill_mode(rawValue: UInt32(try emitterCell(cell).attributes.timing.fillMode.rawValue)) }
}

// Numbers: one pair per row of the table.

@c @implementation public func lk_emitter_cell_set_birth_rate(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.birthRate, .number(v))
}
@c @implementation public func lk_emitter_cell_get_birth_rate(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.birthRate, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_lifetime(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.lifetime, .number(v))
}
@c @implementation public func lk_emitter_cell_get_lifetime(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.lifetime, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_lifetime_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.lifetimeRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_lifetime_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.lifetimeRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_emission_latitude(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.emissionLatitude, .number(v))
}
@c @implementation public func lk_emitter_cell_get_emission_latitude(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.emissionLatitude, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_emission_longitude(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.emissionLongitude, .number(v))
}
@c @implementation public func lk_emitter_cell_get_emission_longitude(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.emissionLongitude, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_emission_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.emissionRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_emission_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.emissionRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_velocity(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.velocity, .number(v))
}
@c @implementation public func lk_emitter_cell_get_velocity(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.velocity, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_velocity_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.velocityRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_velocity_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.velocityRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_x_acceleration(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.xAcceleration, .number(v))
}
@c @implementation public func lk_emitter_cell_get_x_acceleration(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.xAcceleration, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_y_acceleration(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.yAcceleration, .number(v))
}
@c @implementation public func lk_emitter_cell_get_y_acceleration(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.yAcceleration, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_z_acceleration(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.zAcceleration, .number(v))
}
@c @implementation public func lk_emitter_cell_get_z_acceleration(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.zAcceleration, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_scale(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.scale, .number(v))
}
@c @implementation public func lk_emitter_cell_get_scale(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.scale, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_scale_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.scaleRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_scale_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.scaleRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_scale_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.scaleSpeed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_scale_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.scaleSpeed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_spin(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.spin, .number(v))
}
@c @implementation public func lk_emitter_cell_get_spin(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.spin, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_spin_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.spinRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_spin_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.spinRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_red_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.redRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_red_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.redRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_green_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.greenRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_green_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.greenRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_blue_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.blueRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_blue_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.blueRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_alpha_range(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.alphaRange, .number(v))
}
@c @implementation public func lk_emitter_cell_get_alpha_range(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.alphaRange, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_red_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.redSpeed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_red_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.redSpeed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_green_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.greenSpeed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_green_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.greenSpeed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_blue_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.blueSpeed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_blue_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.blueSpeed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_alpha_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.alphaSpeed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_alpha_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.alphaSpeed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_begin_time(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.beginTime, .number(v))
}
@c @implementation public func lk_emitter_cell_get_begin_time(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.beginTime, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_duration(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.duration, .number(v))
}
@c @implementation public func lk_emitter_cell_get_duration(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.duration, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_speed(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.speed, .number(v))
}
@c @implementation public func lk_emitter_cell_get_speed(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.speed, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_time_offset(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.timeOffset, .number(v))
}
@c @implementation public func lk_emitter_cell_get_time_offset(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.timeOffset, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_repeat_count(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.repeatCount, .number(v))
}
@c @implementation public func lk_emitter_cell_get_repeat_count(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.repeatCount, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}

@c @implementation public func lk_emitter_cell_set_repeat_duration(_ cell: OpaquePointer?, _ v: Double) -> lk_status {
    set(cell, EmitterCellProperties.repeatDuration, .number(v))
}
@c @implementation public func lk_emitter_cell_get_repeat_duration(_ cell: OpaquePointer?) -> Double {
    get(cell, EmitterCellProperties.repeatDuration, 0.0) { if case .number(let n) = $0 { n } else { 0 } }
}
