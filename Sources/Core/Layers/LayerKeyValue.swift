import Glibc

/// Key-value access (S1.6): every property by its Core Animation name, the
/// parts of compound values ("position.x", "bounds.size.width") and the
/// virtual transform paths ("transform.rotation.z", "transform.scale", ...).
extension Layer {
    public func value(forKeyPath keyPath: String) throws(LayerKitError) -> Value {
        try state.value(forKeyPath: keyPath)
    }

    public func setValue(_ value: Value, forKeyPath keyPath: String) throws(LayerKitError) {
        let (property, rest) = try resolve(keyPath, kind: state.layerKind)
        if rest.isEmpty {
            // A text layer's font set to nil (none) is the default again, as
            // in Core Animation and lk_text_layer_set_font(NULL).
            if state.layerKind == .text, property.key == TextProperties.font.key, case .none = value {
                try set(TextProperties.font, TextState.defaultFont)
                return
            }
            if property.key == LayerProperties.mask.key {
                guard let mask = Layer?.from(value) else { throw mismatch(keyPath, .layer, value, Layer?.self) }
                try setMask(mask)
                return
            }
            try property.set(self, value)
            return
        }
        let updated = try KeyPathParts.replacing(in: property.get(state), path: rest, with: value, keyPath: keyPath)
        try property.set(self, updated)
    }

    /// The type of value a key path reads and takes.
    public func valueType(forKeyPath keyPath: String) throws(LayerKitError) -> ValueType {
        let (property, rest) = try resolve(keyPath, kind: state.layerKind)
        if rest.isEmpty { return property.type }
        return try KeyPathParts.component(of: property.get(state), path: rest, keyPath: keyPath).type
    }
}

/// Splits a key path into its property row and the rest.
func resolve(_ keyPath: String, kind: LayerKind = .plain) throws(LayerKitError) -> (AnyProperty, [Substring]) {
    // Most key paths name a whole property: no splitting needed.
    if let property = LayerProperties.named(keyPath, kind: kind) { return (property, []) }
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    guard let first = parts.first, !first.isEmpty, let property = LayerProperties.named(String(first), kind: kind) else {
        if kind == .emitter, let cellPath = EmitterCellPaths.resolve(keyPath) { return cellPath }
        throw LayerProperties.unknownKey(keyPath, first: String(parts.first ?? ""), kind: kind)
    }
    return (property, Array(parts.dropFirst()))
}

/// Key paths on a bare state: what the render side and presentation use.
extension LayerState {
    func value(forKeyPath keyPath: String) throws(LayerKitError) -> Value {
        let (property, rest) = try resolve(keyPath, kind: layerKind)
        try EmitterCellPaths.check(property, in: self)
        return try KeyPathParts.component(of: property.get(self), path: rest, keyPath: keyPath)
    }

    /// No validation or actions: for applying animated values.
    mutating func setValue(_ value: Value, forKeyPath keyPath: String) throws(LayerKitError) {
        let (property, rest) = try resolve(keyPath, kind: layerKind)
        let whole = rest.isEmpty ? value
            : try KeyPathParts.replacing(in: property.get(self), path: rest, with: value, keyPath: keyPath)
        _ = property.setState(&self, whole)
    }
}

/// Reading and replacing the parts of compound values.
enum KeyPathParts {
    static func component(of value: Value, path: [Substring], keyPath: String) throws(LayerKitError) -> Value {
        guard let head = path.first else { return value }
        let rest = Array(path.dropFirst())
        switch (value, head) {
        case (.point(let p), "x") where rest.isEmpty: return .number(p.x)
        case (.point(let p), "y") where rest.isEmpty: return .number(p.y)
        case (.size(let s), "width") where rest.isEmpty: return .number(s.width)
        case (.size(let s), "height") where rest.isEmpty: return .number(s.height)
        case (.rect(let r), "origin"): return try component(of: .point(r.origin), path: rest, keyPath: keyPath)
        case (.rect(let r), "size"): return try component(of: .size(r.size), path: rest, keyPath: keyPath)
        case (.transform(let t), _):
            return try TransformKeyPath.value(of: t, path: path, keyPath: keyPath)
        case (.list(let items), _):
            return try component(of: items[try index(head, in: items, keyPath: keyPath)], path: rest, keyPath: keyPath)
        default:
            throw noPart(keyPath, of: value, head)
        }
    }

    static func replacing(in value: Value, path: [Substring], with new: Value, keyPath: String) throws(LayerKitError) -> Value {
        guard let head = path.first else { return new }
        let rest = Array(path.dropFirst())
        func number() throws(LayerKitError) -> Double {
            guard case .number(let n) = new else {
                throw LayerKitError(.typeMismatch, "\(keyPath): expected a number value, got \(describe(new))")
            }
            return n
        }
        switch (value, head) {
        case (.point(var p), "x") where rest.isEmpty: p.x = try number(); return .point(p)
        case (.point(var p), "y") where rest.isEmpty: p.y = try number(); return .point(p)
        case (.size(var s), "width") where rest.isEmpty: s.width = try number(); return .size(s)
        case (.size(var s), "height") where rest.isEmpty: s.height = try number(); return .size(s)
        case (.rect(var r), "origin"):
            guard case .point(let p) = try replacing(in: .point(r.origin), path: rest, with: new, keyPath: keyPath) else {
                throw unknown(keyPath)
            }
            r.origin = p
            return .rect(r)
        case (.rect(var r), "size"):
            guard case .size(let s) = try replacing(in: .size(r.size), path: rest, with: new, keyPath: keyPath) else {
                throw unknown(keyPath)
            }
            r.size = s
            return .rect(r)
        case (.transform(let t), _):
            return .transform(try TransformKeyPath.setting(new, in: t, path: path, keyPath: keyPath))
        case (.list(var items), _):
            let i = try index(head, in: items, keyPath: keyPath)
            let item = try replacing(in: items[i], path: rest, with: new, keyPath: keyPath)
            guard item.type == items[i].type else {
                throw LayerKitError(.typeMismatch, "\(keyPath): expected a \(items[i].type) value, got \(describe(new))")
            }
            items[i] = item
            return .list(items)
        default:
            throw noPart(keyPath, of: value, head)
        }
    }

    /// "colors.2": an element of a list, by its index.
    private static func index(_ part: Substring, in items: [Value], keyPath: String) throws(LayerKitError) -> Int {
        guard let i = Int(part), i >= 0 else { throw noPart(keyPath, of: .list(items), part) }
        guard i < items.count else {
            throw LayerKitError(.unknownKeyPath, "key_path: \"\(keyPath)\": index \(i) is beyond the list's \(items.count) elements")
        }
        return i
    }

    static func unknown(_ keyPath: String) -> LayerKitError {
        LayerKitError(.unknownKeyPath, "key_path: \"\(keyPath)\" is not a property of a layer")
    }

    /// The error for a part of a property's value that is not there
    /// ("position.q"): it names the value's type and the parts it has (the
    /// message said the key path was "not a property of a layer", of any
    /// kind of layer, where the property was one and its part was wrong).
    static func noPart(_ keyPath: String, of value: Value, _ part: Substring) -> LayerKitError {
        let parts: String = switch value.type {
        case .point: "x and y"
        case .size: "width and height"
        case .rect: "origin (x, y) and size (width, height)"
        case .transform: "rotation, scale and translation, each whole or .x, .y or .z"
        case .list: "its elements by index"
        default: "no parts"
        }
        return LayerKitError(.unknownKeyPath,
                             "key_path: \"\(keyPath)\": a \(value.type) has no part \"\(part)\" (it has \(parts))")
    }
}

/// The virtual key paths of a transform: rotation (= rotation.z),
/// rotation.x/y/z, scale (the mean of the three), scale.x/y/z, translation
/// (a size) and translation.x/y/z. Reading decomposes the transform; writing
/// replaces that part and recomposes (S1.6).
enum TransformKeyPath {
    enum Part: Equatable { case rotation(Int), scale(Int?), translation(Int?) }

    static func part(_ path: [Substring], keyPath: String) throws(LayerKitError) -> Part {
        func axis(_ name: Substring) -> Int? {
            switch name {
            case "x": 0
            case "y": 1
            case "z": 2
            default: nil
            }
        }
        switch (path.first, path.count) {
        case ("rotation", 1): return .rotation(2)
        case ("rotation", 2): if let a = axis(path[1]) { return .rotation(a) }
        case ("scale", 1): return .scale(nil)
        case ("scale", 2): if let a = axis(path[1]) { return .scale(a) }
        case ("translation", 1): return .translation(nil)
        case ("translation", 2): if let a = axis(path[1]) { return .translation(a) }
        default: break
        }
        throw KeyPathParts.noPart(keyPath, of: .transform(.identity), Substring(path.joined(separator: ".")))
    }

    /// Decomposes t; a singular transform (a zero scale) keeps its
    /// translation and row lengths as scale, with no rotation.
    static func decompose(_ t: Transform3D) -> DecomposedTransform {
        if let d = DecomposedTransform(t) { return d }
        var d = DecomposedTransform()
        d.translation = (t.m41, t.m42, t.m43)
        func len(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        d.scale = (len(t.m11, t.m12, t.m13), len(t.m21, t.m22, t.m23), len(t.m31, t.m32, t.m33))
        return d
    }

    static func value(of t: Transform3D, path: [Substring], keyPath: String) throws(LayerKitError) -> Value {
        component(try part(path, keyPath: keyPath), of: decompose(t))
    }

    /// The part's value in a decomposed transform.
    static func component(_ part: Part, of d: DecomposedTransform) -> Value {
        switch part {
        case .rotation(let axis):
            let e = d.eulerAngles
            return .number([e.x, e.y, e.z][axis])
        case .scale(nil): return .number((d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scale(let axis?): return .number([d.scale.x, d.scale.y, d.scale.z][axis])
        case .translation(nil): return .size(Size(width: d.translation.x, height: d.translation.y))
        case .translation(let axis?): return .number([d.translation.x, d.translation.y, d.translation.z][axis])
        }
    }

    static func setting(_ value: Value, in t: Transform3D, path: [Substring], keyPath: String) throws(LayerKitError) -> Transform3D {
        let which = try part(path, keyPath: keyPath)
        if case .translation(nil) = which {
            guard case .size(let s) = value else {
                throw LayerKitError(.typeMismatch, "\(keyPath): expected a size value, got \(describe(value))")
            }
            guard s.isFinite else { throw .invalid("\(keyPath): \(describe(value)) is not finite") }
        } else {
            guard case .number(let n) = value else {
                throw LayerKitError(.typeMismatch, "\(keyPath): expected a number value, got \(describe(value))")
            }
            guard n.isFinite else { throw .invalid("\(keyPath): \(describe(value)) is not finite") }
        }
        return setting(value, which, in: decompose(t)) ?? t
    }

    /// The transform with the part set to a finite value of its type; nil otherwise.
    static func setting(_ value: Value, _ which: Part, in decomposed: DecomposedTransform) -> Transform3D? {
        var d = decomposed
        if case .translation(nil) = which {
            guard case .size(let s) = value, s.isFinite else { return nil }
            d.translation.x = s.width; d.translation.y = s.height
            return d.transform
        }
        guard case .number(let n) = value, n.isFinite else { return nil }
        switch which {
        case .rotation(let axis):
            var e = d.eulerAngles
            if axis == 0 { e.x = n } else if axis == 1 { e.y = n } else { e.z = n }
            d.eulerAngles = e
        case .scale(nil): d.scale = (n, n, n)
        case .scale(let axis?):
            if axis == 0 { d.scale.x = n } else if axis == 1 { d.scale.y = n } else { d.scale.z = n }
        case .translation(let axis?):
            if axis == 0 { d.translation.x = n } else if axis == 1 { d.translation.y = n } else { d.translation.z = n }
        case .translation(nil): break
        }
        return d.transform
    }
}
