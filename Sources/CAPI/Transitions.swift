import CLayerKit
import LayerKitCore

// Transitions (S4.13).

@c @implementation public func lk_transition_create() -> OpaquePointer? {
    create { Animation(kind: .transition, keyPath: nil) }
}

/// A transition the program may still change.
private func mutableTransition(_ a: OpaquePointer?, _ call: String) throws -> Animation {
    let target = try mutableAnimation(a)
    guard target.animationKind == .transition else {
        throw LayerKitError(.invalidArgument, "a: \(call) applies to transitions, not \(target.animationKind) animations")
    }
    return target
}

private func transition(_ a: OpaquePointer?, _ call: String) throws -> Animation {
    let target = try animation(a)
    guard target.animationKind == .transition else {
        throw LayerKitError(.invalidArgument, "a: \(call) applies to transitions, not \(target.animationKind) animations")
    }
    return target
}

@c @implementation public func lk_animation_set_transition_type(_ a: OpaquePointer?, _ t: lk_transition_type) -> lk_status {
    run {
        let type: TransitionType = switch t {
        case LK_TRANSITION_FADE: .fade
        case LK_TRANSITION_MOVE_IN: .moveIn
        case LK_TRANSITION_PUSH: .push
        case LK_TRANSITION_REVEAL: .reveal
        default: throw LayerKitError(.invalidArgument, "t: \(t.rawValue) is not an lk_transition_type")
        }
        try mutableTransition(a, "lk_animation_set_transition_type").transition.type = type
    }
}

@c @implementation public func lk_animation_get_transition_type(_ a: OpaquePointer?) -> lk_transition_type {
    read(LK_TRANSITION_FADE) {
        switch try transition(a, "lk_animation_get_transition_type").transition.type {
        case .fade: LK_TRANSITION_FADE
        case .moveIn: LK_TRANSITION_MOVE_IN
        case .push: LK_TRANSITION_PUSH
        case .reveal: LK_TRANSITION_REVEAL
        }
    }
}

@c @implementation public func lk_animation_set_transition_subtype(_ a: OpaquePointer?, _ s: lk_transition_subtype) -> lk_status {
    run {
        let subtype: TransitionSubtype = switch s {
        case LK_TRANSITION_FROM_RIGHT: .fromRight
        case LK_TRANSITION_FROM_LEFT: .fromLeft
        case LK_TRANSITION_FROM_TOP: .fromTop
        case LK_TRANSITION_FROM_BOTTOM: .fromBottom
        default: throw LayerKitError(.invalidArgument, "s: \(s.rawValue) is not an lk_transition_subtype")
        }
        try mutableTransition(a, "lk_animation_set_transition_subtype").transition.subtype = subtype
    }
}

@c @implementation public func lk_animation_get_transition_subtype(_ a: OpaquePointer?) -> lk_transition_subtype {
    read(LK_TRANSITION_FROM_LEFT) {
        switch try transition(a, "lk_animation_get_transition_subtype").transition.subtype {
        case .fromRight: LK_TRANSITION_FROM_RIGHT
        case .fromLeft: LK_TRANSITION_FROM_LEFT
        case .fromTop: LK_TRANSITION_FROM_TOP
        case .fromBottom: LK_TRANSITION_FROM_BOTTOM
        }
    }
}

private func progress(_ p: Double, _ name: String) throws -> Double {
    guard p >= 0, p <= 1 else { throw LayerKitError(.invalidArgument, "p: \(name) \(p) is outside 0...1") }
    return p
}

@c @implementation public func lk_animation_set_start_progress(_ a: OpaquePointer?, _ p: Double) -> lk_status {
    run { try mutableTransition(a, "lk_animation_set_start_progress").transition.startProgress = try progress(p, "startProgress") }
}

@c @implementation public func lk_animation_get_start_progress(_ a: OpaquePointer?) -> Double {
    read(0) { try transition(a, "lk_animation_get_start_progress").transition.startProgress }
}

@c @implementation public func lk_animation_set_end_progress(_ a: OpaquePointer?, _ p: Double) -> lk_status {
    run { try mutableTransition(a, "lk_animation_set_end_progress").transition.endProgress = try progress(p, "endProgress") }
}

@c @implementation public func lk_animation_get_end_progress(_ a: OpaquePointer?) -> Double {
    read(1) { try transition(a, "lk_animation_get_end_progress").transition.endProgress }
}
