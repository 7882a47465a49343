import CLayerKit
import LayerKitCore

// Key paths (S1.6) and user values.

@c @implementation public func lk_layer_set_value(_ l: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?, _ v: lk_value) -> lk_status {
    run {
        let target = try layer(l)
        let key = try string(keyPath, "key_path")
        try target.setValue(try value(from: v, "value"), forKeyPath: key)
    }
}

@c @implementation public func lk_layer_get_value(_ l: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    run {
        let target = try layer(l)
        let key = try string(keyPath, "key_path")
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        let found = try target.value(forKeyPath: key)
        if case .list = found { throw listError(key) }
        out.pointee = cValue(found, owner: target, key: "keyPath:" + key)
    }
}

@c @implementation public func lk_layer_get_value_type(_ l: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?) -> lk_value_type {
    read(LK_VALUE_NONE) {
        let target = try layer(l)
        let key = try string(keyPath, "key_path")
        let type = try target.valueType(forKeyPath: key)
        if type == .list { throw listError(key) }
        return valueType(type)
    }
}

/// Lists have no lk_value: their typed calls or their elements serve.
private func listError(_ key: String) -> LayerKitError {
    LayerKitError(.typeMismatch, "key_path: \"\(key)\" is a list; read it with its typed call (e.g. lk_gradient_layer_get_colors) or one element by index (\"\(key).0\")")
}

@c @implementation public func lk_layer_set_user_value(_ l: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ v: lk_value) -> lk_status {
    run {
        let target = try layer(l)
        let name = try string(key, "key")
        try target.setUserValue(try value(from: v, "value"), forKey: name)
    }
}

@c @implementation public func lk_layer_get_user_value(_ l: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<lk_value>?) -> lk_status {
    run {
        let target = try layer(l)
        let name = try string(key, "key")
        guard let out else { throw LayerKitError(.invalidArgument, "out: NULL") }
        guard let stored = target.userValues[name] else {
            out.pointee = lk_value()
            throw LayerKitError(.notFound, "key: no user value \"\(name)\" on the layer")
        }
        out.pointee = cValue(stored, owner: target, key: "user:" + name)
    }
}
