import CLayerKit
import LayerKitCore

// Actions and layer delegates (S3).

func action(_ handle: OpaquePointer?, _ argument: String) throws -> Action {
    try object(handle, argument, .action, as: Action.self)
}

public typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

@c @implementation public func lk_layer_set_delegate(_ l: OpaquePointer?, _ d: UnsafePointer<lk_layer_delegate>?,
                                                     _ userData: UnsafeMutableRawPointer?, _ destroy: DestroyFunction?) -> lk_status {
    run {
        let target = try layer(l)
        try target.checkWritable()   // (a presentation copy calls no delegate)
        guard let d else {
            target.delegate = nil
            return
        }
        let c = d.pointee
        guard c.struct_size >= UInt32(MemoryLayout<lk_layer_delegate>.size) else {
            throw LayerKitError(.invalidArgument,
                "delegate->struct_size: \(c.struct_size) is less than sizeof(lk_layer_delegate) = \(MemoryLayout<lk_layer_delegate>.size)")
        }
        let box = UserData(userData)
        let ask = c.action_for_key.map { fn in
            { (layer: Layer, event: String) -> DelegateAnswer in
                let answer = event.withCString { fn(borrowed(layer), $0, box.pointer) }
                guard let answer, let found = try? action(answer, "the delegate's action") else { return .continueSearch }
                return .action(found)
            }
        }
        let layout = c.layout_sublayers.map { fn in { (layer: Layer) in fn(borrowed(layer), box.pointer) } }
        let draw = c.draw.map { fn in
            { (layer: Layer, canvas: Canvas) in fn(borrowed(layer), borrowed(canvas), box.pointer) }
        }
        target.delegate = LayerDelegate(actionForKey: ask, layoutSublayers: layout, draw: draw,
                                        destroy: destroy.map { fn in { fn(box.pointer) } })
    }
}

@c @implementation public func lk_action_null() -> OpaquePointer? {
    borrowed(Action.null)
}

@c @implementation public func lk_action_create(_ runFunction: (@convention(c) (UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void)?,
                                                _ userData: UnsafeMutableRawPointer?, _ destroy: DestroyFunction?) -> OpaquePointer? {
    create {
        guard let runFunction else { throw LayerKitError(.invalidArgument, "run: NULL function") }
        let box = UserData(userData)
        return Action(.custom { event, layer in
            event.withCString { runFunction($0, borrowed(layer), box.pointer) }
        }, destroy: destroy.map { fn in { fn(box.pointer) } })
    }
}

@c @implementation public func lk_animation_as_action(_ a: OpaquePointer?) -> OpaquePointer? {
    read(nil) {
        let wrapped = Action(.animation(try animation(a, "animation")))
        Transaction.autorelease(wrapped)
        return borrowed(wrapped)
    }
}

private func setAction(_ l: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ a: OpaquePointer?,
                       _ apply: (Layer, Action?, String) throws -> Void) -> lk_status {
    run {
        let target = try layer(l)
        let name = try string(event, "event")
        try apply(target, a == nil ? nil : try action(a, "action"), name)
    }
}

@c @implementation public func lk_layer_set_action(_ l: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ a: OpaquePointer?) -> lk_status {
    setAction(l, event, a) { try $0.setAction($1, forKey: $2) }
}

@c @implementation public func lk_layer_set_style_action(_ l: OpaquePointer?, _ event: UnsafePointer<CChar>?, _ a: OpaquePointer?) -> lk_status {
    setAction(l, event, a) { try $0.setStyleAction($1, forKey: $2) }
}

@c @implementation public func lk_layer_copy_action_for_key(_ l: OpaquePointer?, _ event: UnsafePointer<CChar>?) -> OpaquePointer? {
    do {
        let found: Action? = try ModelLock.shared.withLock {
            try layer(l).action(forKey: try string(event, "event"))
        }
        guard let found else { return nil }
        return OpaquePointer(HandleRegistry.shared.passRetained(found))
    } catch {
        setLastError(layerKitError(error))
        return nil
    }
}

// Layout

@c @implementation public func lk_layer_set_needs_layout(_ l: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        guard !target.isPresentationCopy else {
            throw LayerKitError(.state, "layer: a presentation layer is read-only; mark its model layer")
        }
        target.setNeedsLayout()
    }
}

@c @implementation public func lk_layer_get_needs_layout(_ l: OpaquePointer?) -> Bool {
    read(false) { try layer(l).needsLayout }
}

@c @implementation public func lk_layer_layout_if_needed(_ l: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        try target.checkWritable()   // (a presentation copy is never laid out)
        target.layoutIfNeeded()
    }
}

@c @implementation public func lk_layer_layout_sublayers(_ l: OpaquePointer?) -> lk_status {
    run {
        let target = try layer(l)
        try target.checkWritable()
        target.layoutSublayers()
    }
}

// Kinds and their default actions (S3.1 step 4)

/// The C kind of a layer kind: the C values are fixed by the header, the
/// Swift ones are free to change.
func cKind(_ kind: LayerKind) -> lk_layer_kind {
    switch kind {
    case .plain: LK_LAYER_KIND_LAYER
    case .shape: LK_LAYER_KIND_SHAPE
    case .text: LK_LAYER_KIND_TEXT
    case .gradient: LK_LAYER_KIND_GRADIENT
    case .emitter: LK_LAYER_KIND_EMITTER
    case .replicator: LK_LAYER_KIND_REPLICATOR
    case .transform: LK_LAYER_KIND_TRANSFORM
    case .scroll: LK_LAYER_KIND_SCROLL
    case .tiled: LK_LAYER_KIND_TILED
    }
}

func layerKind(_ kind: lk_layer_kind, _ argument: String) throws -> LayerKind {
    guard let found = LayerKind.allCases.first(where: { cKind($0) == kind }) else {
        throw LayerKitError(.invalidArgument, "\(argument): \(kind.rawValue) is not an lk_layer_kind")
    }
    return found
}

@c @implementation public func lk_layer_get_kind(_ l: OpaquePointer?) -> lk_layer_kind {
    read(LK_LAYER_KIND_LAYER) { cKind(try layer(l).state.layerKind) }
}

@c @implementation public func lk_layer_kind_set_default_action(_ kind: lk_layer_kind, _ event: UnsafePointer<CChar>?,
                                                                _ a: OpaquePointer?) -> lk_status {
    run {
        let found = try layerKind(kind, "kind")
        let name = try string(event, "event")
        DefaultActions.set(a == nil ? nil : try action(a, "action"), for: found, event: name)
    }
}
