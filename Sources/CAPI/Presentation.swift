import CLayerKit
import LayerKitCore

// Presentation (S5.1) and time conversion (S4.2).

private func presentation(_ l: OpaquePointer?, at time: Double) -> OpaquePointer? {
    do {
        let copy: Layer? = try ModelLock.shared.withLock {
            let target = try layer(l)
            guard time.isFinite else { throw LayerKitError(.invalidArgument, "media_time: \(time) is not finite") }
            return target.presentationCopy(at: time)
        }
        guard let copy else {
            setLastError(LayerKitError(.state, "layer: has never been committed, so it has no presentation (S5.1)"))
            return nil
        }
        return OpaquePointer(HandleRegistry.shared.passRetained(copy))
    } catch {
        setLastError(layerKitError(error))
        return nil
    }
}

@c @implementation public func lk_layer_copy_presentation(_ l: OpaquePointer?) -> OpaquePointer? {
    presentation(l, at: mediaTime())
}

@c @implementation public func lk_layer_copy_presentation_at(_ l: OpaquePointer?, _ mediaTime: Double) -> OpaquePointer? {
    presentation(l, at: mediaTime)
}

@c @implementation public func lk_layer_get_model_layer(_ l: OpaquePointer?) -> OpaquePointer? {
    read(nil) {
        let target = try layer(l)
        return borrowed(target.modelLayer ?? target)
    }
}

@c @implementation public func lk_layer_convert_time(_ from: OpaquePointer?, _ t: Double, _ to: OpaquePointer?) -> Double {
    read(0) {
        try Layer.convertTime(try finite(t, "t"), from: try optionalLayer(from, "from"), to: try optionalLayer(to, "to"))
    }
}
