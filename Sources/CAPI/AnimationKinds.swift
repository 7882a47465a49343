import CLayerKit
import LayerKitCore

// Keyframe (S4.10), spring (S4.11) and group (S4.12) animations.

@c @implementation public func lk_keyframe_animation_create(_ keyPath: UnsafePointer<CChar>?) -> OpaquePointer? {
    create { Animation(kind: .keyframe, keyPath: keyPath == nil ? nil : try string(keyPath, "key_path")) }
}

@c @implementation public func lk_spring_animation_create(_ keyPath: UnsafePointer<CChar>?) -> OpaquePointer? {
    create { Animation(kind: .spring, keyPath: keyPath == nil ? nil : try string(keyPath, "key_path")) }
}

@c @implementation public func lk_animation_group_create() -> OpaquePointer? {
    create { Animation(kind: .group, keyPath: nil) }
}

@c @implementation public func lk_animation_get_kind(_ a: OpaquePointer?) -> lk_animation_kind {
    read(LK_ANIMATION_BASIC) {
        switch try animation(a).animationKind {
        case .basic: LK_ANIMATION_BASIC
        case .keyframe: LK_ANIMATION_KEYFRAME
        case .spring: LK_ANIMATION_SPRING
        case .group: LK_ANIMATION_GROUP
        case .transition: LK_ANIMATION_TRANSITION
        }
    }
}

/// An animation of `kind` the program may still change.
private func mutable(_ a: OpaquePointer?, _ kind: Animation.Kind, _ call: String,
                     argument: String = "a") throws -> Animation {
    let target = try mutableAnimation(a, argument)
    try check(target, is: kind, call, argument: argument)
    return target
}

/// An animation of `kind`, to read: a getter on another kind returns the
/// type's zero and says so, as its setter refuses it (a basic animation's
/// mass read as the spring default, with no error).
private func animation(_ a: OpaquePointer?, of kind: Animation.Kind, _ call: String,
                       argument: String = "a") throws -> Animation {
    let target = try animation(a, argument)
    try check(target, is: kind, call, argument: argument)
    return target
}

private func check(_ target: Animation, is kind: Animation.Kind, _ call: String, argument: String) throws {
    guard target.animationKind == kind else {
        throw LayerKitError(.invalidArgument, "\(argument): \(call) applies to \(kind) animations, not \(target.animationKind)")
    }
}

private func doubles(_ p: UnsafePointer<Double>?, _ count: Int, _ name: String) throws -> [Double] {
    guard try arrayCount(count, "count") > 0 else { return [] }
    guard let p else { throw LayerKitError(.invalidArgument, "\(name): NULL with count \(count)") }
    return Array(UnsafeBufferPointer(start: p, count: count))
}

// MARK: Keyframes

@c @implementation public func lk_animation_set_values(_ a: OpaquePointer?, _ values: UnsafePointer<lk_value>?, _ count: Int) -> lk_status {
    run {
        let target = try mutable(a, .keyframe, "lk_animation_set_values")
        let count = try arrayCount(count, "count")
        guard count == 0 || values != nil else { throw LayerKitError(.invalidArgument, "values: NULL with count \(count)") }
        var converted: [Value] = []
        for i in 0..<count {
            // Paths are copied: later edits of the caller's path do not reach the animation.
            switch try finiteValue(from: values![i], "values[\(i)]") {
            case .path(let p): converted.append(.path(p.copy()))
            case let v: converted.append(v)
            }
        }
        target.keyframes.values = converted
    }
}

@c @implementation public func lk_animation_get_values(_ a: OpaquePointer?, _ values: UnsafeMutablePointer<lk_value>?, _ capacity: Int) -> Int {
    read(0) {
        let target = try animation(a, of: .keyframe, "lk_animation_get_values")
        let all = target.keyframes.values
        if let values {
            for (i, v) in all.prefix(max(0, capacity)).enumerated() {
                values[i] = cValue(v, owner: target, key: "values:\(i)")
            }
        }
        return all.count
    }
}

@c @implementation public func lk_animation_set_key_times(_ a: OpaquePointer?, _ times: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try mutable(a, .keyframe, "lk_animation_set_key_times").keyframes.keyTimes = try doubles(times, count, "times") }
}

@c @implementation public func lk_animation_get_key_times(_ a: OpaquePointer?, _ times: UnsafeMutablePointer<Double>?, _ capacity: Int) -> Int {
    read(0) {
        let all = try animation(a, of: .keyframe, "lk_animation_get_key_times").keyframes.keyTimes
        if let times { for (i, t) in all.prefix(max(0, capacity)).enumerated() { times[i] = t } }
        return all.count
    }
}

@c @implementation public func lk_animation_set_path(_ a: OpaquePointer?, _ p: OpaquePointer?) -> lk_status {
    run {
        let target = try mutable(a, .keyframe, "lk_animation_set_path")
        target.keyframes.path = p == nil ? nil : try path(p, "path").data
    }
}

@c @implementation public func lk_animation_copy_path(_ a: OpaquePointer?) -> OpaquePointer? {
    do {
        let data = try ModelLock.shared.withLock { () throws -> PathData? in try animation(a, of: .keyframe, "lk_animation_copy_path").keyframes.path }
        guard let data else { return nil }
        return create { Path(data) }
    } catch {
        setLastError(layerKitError(error))
        return nil
    }
}

@c @implementation public func lk_animation_set_timing_functions(_ a: OpaquePointer?, _ fns: UnsafePointer<OpaquePointer?>?, _ count: Int) -> lk_status {
    run {
        let target = try mutable(a, .keyframe, "lk_animation_set_timing_functions")
        let count = try arrayCount(count, "count")
        guard count == 0 || fns != nil else { throw LayerKitError(.invalidArgument, "fns: NULL with count \(count)") }
        var list: [TimingFunction] = []
        for i in 0..<count {
            list.append(fns![i] == nil ? TimingFunction.named(.linear) : try timingFunction(fns![i], "fns[\(i)]"))
        }
        target.keyframes.timingFunctions = list
    }
}

@c @implementation public func lk_animation_set_calculation_mode(_ a: OpaquePointer?, _ m: lk_calculation_mode) -> lk_status {
    run {
        let target = try mutable(a, .keyframe, "lk_animation_set_calculation_mode")
        guard let mode = CalculationMode(rawValue: Int32(bitPattern: m.rawValue)) else {
            throw LayerKitError(.invalidArgument, "m: \(m.rawValue) is not an lk_calculation_mode")
        }
        target.keyframes.calculationMode = mode
    }
}

@c @implementation public func lk_animation_get_calculation_mode(_ a: OpaquePointer?) -> lk_calculation_mode {
    read(LK_CALCULATION_LINEAR) { lk_calculation_mode(rawValue: UInt32(try animation(a, of: .keyframe, "lk_animation_get_calculation_mode").keyframes.calculationMode.rawValue)) }
}

@c @implementation public func lk_animation_set_rotation_mode(_ a: OpaquePointer?, _ m: lk_rotation_mode) -> lk_status {
    run {
        let target = try mutable(a, .keyframe, "lk_animation_set_rotation_mode")
        guard let mode = RotationMode(rawValue: Int32(bitPattern: m.rawValue)) else {
            throw LayerKitError(.invalidArgument, "m: \(m.rawValue) is not an lk_rotation_mode")
        }
        target.keyframes.rotationMode = mode
    }
}

@c @implementation public func lk_animation_get_rotation_mode(_ a: OpaquePointer?) -> lk_rotation_mode {
    read(LK_ROTATION_NONE) { lk_rotation_mode(rawValue: UInt32(try animation(a, of: .keyframe, "lk_animation_get_rotation_mode").keyframes.rotationMode.rawValue)) }
}

@c @implementation public func lk_animation_set_tension_values(_ a: OpaquePointer?, _ v: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try mutable(a, .keyframe, "lk_animation_set_tension_values").keyframes.tensionValues = try doubles(v, count, "v") }
}

@c @implementation public func lk_animation_set_continuity_values(_ a: OpaquePointer?, _ v: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try mutable(a, .keyframe, "lk_animation_set_continuity_values").keyframes.continuityValues = try doubles(v, count, "v") }
}

@c @implementation public func lk_animation_set_bias_values(_ a: OpaquePointer?, _ v: UnsafePointer<Double>?, _ count: Int) -> lk_status {
    run { try mutable(a, .keyframe, "lk_animation_set_bias_values").keyframes.biasValues = try doubles(v, count, "v") }
}

// MARK: Springs

private func setSpring(_ a: OpaquePointer?, _ v: Double, _ call: String, positive: Bool,
                       _ assign: (inout SpringParameters, Double) -> Void) -> lk_status {
    run {
        let target = try mutable(a, .spring, call)
        let x = try finite(v, "v")
        if positive ? !(x > 0) : !(x >= 0) {
            throw LayerKitError(.invalidArgument, "v: \(call) needs a value \(positive ? "> 0" : ">= 0") (got \(x))")
        }
        assign(&target.spring, x)
    }
}

private func getSpring(_ a: OpaquePointer?, _ call: String, _ field: (SpringParameters) -> Double) -> Double {
    read(0) { field(try animation(a, of: .spring, call).spring) }
}

@c @implementation public func lk_animation_set_mass(_ a: OpaquePointer?, _ v: Double) -> lk_status {
    setSpring(a, v, "lk_animation_set_mass", positive: true) { $0.mass = $1 }
}
@c @implementation public func lk_animation_get_mass(_ a: OpaquePointer?) -> Double { getSpring(a, "lk_animation_get_mass") { $0.mass } }
@c @implementation public func lk_animation_set_stiffness(_ a: OpaquePointer?, _ v: Double) -> lk_status {
    setSpring(a, v, "lk_animation_set_stiffness", positive: true) { $0.stiffness = $1 }
}
@c @implementation public func lk_animation_get_stiffness(_ a: OpaquePointer?) -> Double { getSpring(a, "lk_animation_get_stiffness") { $0.stiffness } }
@c @implementation public func lk_animation_set_damping(_ a: OpaquePointer?, _ v: Double) -> lk_status {
    setSpring(a, v, "lk_animation_set_damping", positive: false) { $0.damping = $1 }
}
@c @implementation public func lk_animation_get_damping(_ a: OpaquePointer?) -> Double { getSpring(a, "lk_animation_get_damping") { $0.damping } }
@c @implementation public func lk_animation_set_initial_velocity(_ a: OpaquePointer?, _ v: Double) -> lk_status {
    run {
        let target = try mutable(a, .spring, "lk_animation_set_initial_velocity")
        target.spring.initialVelocity = try finite(v, "v")
    }
}
@c @implementation public func lk_animation_get_initial_velocity(_ a: OpaquePointer?) -> Double { getSpring(a, "lk_animation_get_initial_velocity") { $0.initialVelocity } }
@c @implementation public func lk_animation_get_settling_duration(_ a: OpaquePointer?) -> Double {
    read(0) {
        let target = try animation(a, of: .spring, "lk_animation_get_settling_duration")
        guard target.spring.isComputable else {
            throw LayerKitError(.invalidArgument, "a: its mass, stiffness and damping put the spring out of range (sqrt(stiffness / mass) overflows or is 0); it has no settling duration")
        }
        return target.spring.settlingDuration
    }
}

// MARK: Groups

@c @implementation public func lk_animation_set_animations(_ group: OpaquePointer?, _ children: UnsafePointer<OpaquePointer?>?,
                                                           _ count: Int) -> lk_status {
    run {
        let target = try mutable(group, .group, "lk_animation_set_animations", argument: "group")
        let count = try arrayCount(count, "count")
        guard count == 0 || children != nil else { throw LayerKitError(.invalidArgument, "children: NULL with count \(count)") }
        var list: [Animation] = []
        for i in 0..<count {
            let child = try animation(children![i], "children[\(i)]")
            if child === target { throw LayerKitError(.invalidArgument, "children[\(i)]: a group cannot contain itself") }
            // (refused here, by the call that takes it, not only when the group is added)
            if child.animationKind == .transition {
                throw LayerKitError(.invalidArgument, "children[\(i)]: a transition cannot be part of a group; add it to the layer")
            }
            if child.groupDepth >= Animation.maximumGroupDepth {
                throw LayerKitError(.invalidArgument,
                    "children[\(i)]: groups would nest more than \(Animation.maximumGroupDepth) deep")
            }
            list.append(child.copy())
        }
        target.animations = list
    }
}

@c @implementation public func lk_animation_get_animations(_ group: OpaquePointer?, _ children: UnsafeMutablePointer<OpaquePointer?>?,
                                                           _ capacity: Int) -> Int {
    read(0) {
        let all = try animation(group, of: .group, "lk_animation_get_animations", argument: "group").animations
        if let children { for (i, c) in all.prefix(max(0, capacity)).enumerated() { children[i] = borrowed(c) } }
        return all.count
    }
}
