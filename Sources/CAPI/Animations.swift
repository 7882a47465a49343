import CLayerKit
import LayerKitCore

// Animations (S4): creation, timing, values, delegates, and adding them to layers.

func animation(_ handle: OpaquePointer?, _ argument: String = "a") throws -> Animation {
    try object(handle, argument, .animation, as: Animation.self)
}

/// An animation the program may still change (not a copy held by a layer).
func mutableAnimation(_ handle: OpaquePointer?, _ argument: String = "a") throws -> Animation {
    let a = try animation(handle, argument)
    try a.checkMutable()
    return a
}

/// A property animation (basic, keyframe or spring: Core Animation's
/// CAPropertyAnimation): a group's or a transition's key path, additive and
/// cumulative were stored and ignored, and read back with no error.
private func checkPropertyAnimation(_ target: Animation, _ call: String) throws {
    guard target.animationKind != .group && target.animationKind != .transition else {
        throw LayerKitError(.invalidArgument, "a: \(call) applies to basic, keyframe and spring animations, not \(target.animationKind)")
    }
}

/// A property animation the program may still change.
private func propertyAnimation(_ handle: OpaquePointer?, _ call: String) throws -> Animation {
    let target = try mutableAnimation(handle)
    try checkPropertyAnimation(target, call)
    return target
}

/// A property animation, to read: on another kind the getter returns the
/// type's zero and says so, as its setter refuses it.
private func readablePropertyAnimation(_ handle: OpaquePointer?, _ call: String) throws -> Animation {
    let target = try animation(handle)
    try checkPropertyAnimation(target, call)
    return target
}

@c @implementation public func lk_basic_animation_create(_ keyPath: UnsafePointer<CChar>?) -> OpaquePointer? {
    create { Animation(kind: .basic, keyPath: keyPath == nil ? nil : try string(keyPath, "key_path")) }
}

@c @implementation public func lk_animation_copy(_ a: OpaquePointer?) -> OpaquePointer? {
    create { try animation(a, "animation").copy() }
}

@c @implementation public func lk_animation_set_key_path(_ a: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try propertyAnimation(a, "lk_animation_set_key_path")
        target.keyPath = keyPath == nil ? nil : try string(keyPath, "key_path")
    }
}

@c @implementation public func lk_animation_get_key_path(_ a: OpaquePointer?) -> UnsafePointer<CChar>? {
    read(nil) {
        let target = try readablePropertyAnimation(a, "lk_animation_get_key_path")
        return target.keyPath.map { CStringCache.shared.pointer(for: $0, owner: target, key: "keyPath") }
    }
}

// MARK: Timing (S4.1)

private func setTiming(_ a: OpaquePointer?, _ change: (inout TimingState) throws -> Void) -> lk_status {
    run {
        let target = try mutableAnimation(a)
        var timing = target.timing
        try change(&timing)
        if timing.repeatCount != 0 && timing.repeatDuration != 0 {
            throw LayerKitError(.state, "repeatCount and repeatDuration are exclusive (S4.4): clear one before setting the other")
        }
        target.timing = timing
    }
}

private func getTiming<T>(_ a: OpaquePointer?, _ zero: T, _ field: (TimingState) -> T) -> T {
    read(zero) { field(try animation(a).timing) }
}

private func nonNegative(_ v: Double, _ name: String, allowInfinity: Bool) throws -> Double {
    guard !v.isNaN, v >= 0, allowInfinity || v.isFinite else {
        throw LayerKitError(.invalidArgument, "\(name): must be \(allowInfinity ? "" : "a finite number ")>= 0 (got \(v))")
    }
    return v
}

@c @implementation public func lk_animation_set_begin_time(_ a: OpaquePointer?, _ t: Double) -> lk_status {
    setTiming(a) { $0.beginTime = try finite(t, "t") }
}
@c @implementation public func lk_animation_get_begin_time(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.beginTime } }
@c @implementation public func lk_animation_set_duration(_ a: OpaquePointer?, _ d: Double) -> lk_status {
    setTiming(a) { $0.duration = try nonNegative(d, "d", allowInfinity: true) }
}
@c @implementation public func lk_animation_get_duration(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.duration } }
@c @implementation public func lk_animation_set_speed(_ a: OpaquePointer?, _ speed: Double) -> lk_status {
    setTiming(a) { $0.speed = try finite(speed, "speed") }
}
@c @implementation public func lk_animation_get_speed(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.speed } }
@c @implementation public func lk_animation_set_time_offset(_ a: OpaquePointer?, _ offset: Double) -> lk_status {
    setTiming(a) { $0.timeOffset = try finite(offset, "offset") }
}
@c @implementation public func lk_animation_get_time_offset(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.timeOffset } }
@c @implementation public func lk_animation_set_repeat_count(_ a: OpaquePointer?, _ count: Double) -> lk_status {
    setTiming(a) { $0.repeatCount = try nonNegative(count, "count", allowInfinity: true) }
}
@c @implementation public func lk_animation_get_repeat_count(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.repeatCount } }
@c @implementation public func lk_animation_set_repeat_duration(_ a: OpaquePointer?, _ d: Double) -> lk_status {
    setTiming(a) { $0.repeatDuration = try nonNegative(d, "d", allowInfinity: true) }
}
@c @implementation public func lk_animation_get_repeat_duration(_ a: OpaquePointer?) -> Double { getTiming(a, 0) { $0.repeatDuration } }
@c @implementation public func lk_animation_set_autoreverses(_ a: OpaquePointer?, _ autoreverses: Bool) -> lk_status {
    setTiming(a) { $0.autoreverses = autoreverses }
}
@c @implementation public func lk_animation_get_autoreverses(_ a: OpaquePointer?) -> Bool { getTiming(a, false) { $0.autoreverses } }
@c @implementation public func lk_animation_set_fill_mode(_ a: OpaquePointer?, _ mode: lk_fill_mode) -> lk_status {
    setTiming(a) {
        guard let m = FillMode(rawValue: Int32(bitPattern: mode.rawValue)) else {
            throw LayerKitError(.invalidArgument, "mode: \(mode.rawValue) is not an lk_fill_mode")
        }
        $0.fillMode = m
    }
}
@c @implementation public func lk_animation_get_fill_mode(_ a: OpaquePointer?) -> lk_fill_mode {
    getTiming(a, LK_FILL_REMOVED) { lk_fill_mode(rawValue: UInt32($0.fillMode.rawValue)) }
}

@c @implementation public func lk_animation_set_timing_function(_ a: OpaquePointer?, _ fn: OpaquePointer?) -> lk_status {
    run {
        let target = try mutableAnimation(a)
        target.timingFunction = fn == nil ? nil : try timingFunction(fn, "fn")
    }
}
@c @implementation public func lk_animation_get_timing_function(_ a: OpaquePointer?) -> OpaquePointer? {
    read(nil) { borrowed(try animation(a).timingFunction) }
}

private func setFlag(_ a: OpaquePointer?, _ change: (Animation) -> Void) -> lk_status {
    run { change(try mutableAnimation(a)) }
}

@c @implementation public func lk_animation_set_removed_on_completion(_ a: OpaquePointer?, _ removed: Bool) -> lk_status {
    setFlag(a) { $0.removedOnCompletion = removed }
}
@c @implementation public func lk_animation_get_removed_on_completion(_ a: OpaquePointer?) -> Bool {
    read(false) { try animation(a).removedOnCompletion }
}
@c @implementation public func lk_animation_set_additive(_ a: OpaquePointer?, _ additive: Bool) -> lk_status {
    run { try propertyAnimation(a, "lk_animation_set_additive").additive = additive }
}
@c @implementation public func lk_animation_get_additive(_ a: OpaquePointer?) -> Bool { read(false) { try readablePropertyAnimation(a, "lk_animation_get_additive").additive } }
@c @implementation public func lk_animation_set_cumulative(_ a: OpaquePointer?, _ cumulative: Bool) -> lk_status {
    run { try propertyAnimation(a, "lk_animation_set_cumulative").cumulative = cumulative }
}
@c @implementation public func lk_animation_get_cumulative(_ a: OpaquePointer?) -> Bool { read(false) { try readablePropertyAnimation(a, "lk_animation_get_cumulative").cumulative } }

// MARK: Values (S4.8)

/// fromValue, toValue and byValue: basic and spring animations only (a
/// keyframe animation has values, a group and a transition none; there they
/// were stored and ignored, and a group could then be refused under S4.8).
private func checkValuedAnimation(_ target: Animation, _ call: String) throws {
    guard target.animationKind == .basic || target.animationKind == .spring else {
        throw LayerKitError(.invalidArgument, "a: \(call) applies to basic and spring animations, not \(target.animationKind)")
    }
}

private func setAnimationValue(_ a: OpaquePointer?, _ v: lk_value, _ call: String,
                               _ assign: (Animation, Value?) -> Void) -> lk_status {
    run {
        let target = try mutableAnimation(a)
        try checkValuedAnimation(target, call)
        let converted = try finiteValue(from: v, "v")
        if case .none = converted { assign(target, nil) } else { assign(target, converted) }
    }
}

private func getAnimationValue(_ a: OpaquePointer?, _ out: UnsafeMutablePointer<lk_value>?, _ name: String,
                               _ call: String, _ field: (Animation) -> Value?) -> lk_status {
    run {
        let target = try animation(a)
        try checkValuedAnimation(target, call)   // (as the setters refuse them)
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        out.pointee = cValue(field(target) ?? .none, owner: target, key: name)
    }
}

@c @implementation public func lk_animation_set_from_value(_ a: OpaquePointer?, _ v: lk_value) -> lk_status {
    setAnimationValue(a, v, "lk_animation_set_from_value") { $0.fromValue = $1 }
}
@c @implementation public func lk_animation_set_to_value(_ a: OpaquePointer?, _ v: lk_value) -> lk_status {
    setAnimationValue(a, v, "lk_animation_set_to_value") { $0.toValue = $1 }
}
@c @implementation public func lk_animation_set_by_value(_ a: OpaquePointer?, _ v: lk_value) -> lk_status {
    setAnimationValue(a, v, "lk_animation_set_by_value") { $0.byValue = $1 }
}
@c @implementation public func lk_animation_get_from_value(_ a: OpaquePointer?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    getAnimationValue(a, out, "fromValue", "lk_animation_get_from_value") { $0.fromValue }
}
@c @implementation public func lk_animation_get_to_value(_ a: OpaquePointer?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    getAnimationValue(a, out, "toValue", "lk_animation_get_to_value") { $0.toValue }
}
@c @implementation public func lk_animation_get_by_value(_ a: OpaquePointer?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    getAnimationValue(a, out, "byValue", "lk_animation_get_by_value") { $0.byValue }
}

@c @implementation public func lk_animation_set_user_value(_ a: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ v: lk_value) -> lk_status {
    run {
        let target = try animation(a)
        target.setUserValue(try value(from: v, "v"), forKey: try string(key, "key"))
    }
}

@c @implementation public func lk_animation_get_user_value(_ a: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    run {
        let target = try animation(a)
        let name = try string(key, "key")
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        guard let stored = target.userValues[name] else {
            out.pointee = lk_value()
            throw LayerKitError(.notFound, "key: no user value \"\(name)\" on the animation")
        }
        out.pointee = cValue(stored, owner: target, key: "user:" + name)
    }
}

@c @implementation public func lk_animation_set_delegate(_ a: OpaquePointer?, _ d: UnsafePointer<lk_animation_delegate>?,
                                                         _ userData: UnsafeMutableRawPointer?, _ destroy: DestroyFunction?) -> lk_status {
    run {
        let target = try mutableAnimation(a)
        guard let d else {
            target.delegate = nil
            return
        }
        let c = d.pointee
        guard c.struct_size >= UInt32(MemoryLayout<lk_animation_delegate>.size) else {
            throw LayerKitError(.invalidArgument,
                "d->struct_size: \(c.struct_size) is less than sizeof(lk_animation_delegate) = \(MemoryLayout<lk_animation_delegate>.size)")
        }
        let box = UserData(userData)
        target.delegate = AnimationDelegate(
            didStart: c.did_start.map { fn in { fn(borrowed($0), box.pointer) } },
            didStop: c.did_stop.map { fn in { fn(borrowed($0), $1, box.pointer) } },
            destroy: destroy.map { fn in { fn(box.pointer) } })
    }
}

// MARK: On layers

@c @implementation public func lk_layer_add_animation(_ l: OpaquePointer?, _ a: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try layer(l)
        let added = try animation(a, "a")
        try target.addAnimation(added, forKey: key == nil ? nil : try string(key, "key"), argument: "a")
    }
}

@c @implementation public func lk_layer_get_animation(_ l: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> OpaquePointer? {
    read(nil) {
        let target = try layer(l)
        return borrowed(target.animation(forKey: try string(key, "key")))
    }
}

@c @implementation public func lk_layer_remove_animation(_ l: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> lk_status {
    run {
        let target = try layer(l)
        try target.removeAnimation(forKey: try string(key, "key"))
    }
}

@c @implementation public func lk_layer_remove_all_animations(_ l: OpaquePointer?) {
    _ = run { try layer(l).removeAllAnimations() }
}

@c @implementation public func lk_layer_get_animation_keys(_ l: OpaquePointer?, _ keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                           _ capacity: Int) -> Int {
    read(0) {
        let target = try layer(l)
        let all = target.animationKeys
        if let keys {
            for (i, key) in all.prefix(max(0, capacity)).enumerated() {
                keys[i] = CStringCache.shared.pointer(for: key, owner: target, key: "animationKey:\(i)")
            }
        }
        return all.count
    }
}
