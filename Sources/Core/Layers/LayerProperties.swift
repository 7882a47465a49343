/// The property table of a layer (S1.1): one row per property. Adding a
/// property is adding a row here and a field in LayerState.
public enum LayerProperties {
    // Geometry
    public static let bounds = Property("bounds", \.bounds, animatable: true, effect: .geometry) { r, _ throws(LayerKitError) in
        guard r.size.width >= 0, r.size.height >= 0 else {
            throw .invalid("bounds: width and height must not be negative (got \(describe(r.value)))")
        }
        return r
    }
    public static let position = Property("position", \.position, animatable: true, effect: .geometry)
    public static let anchorPoint = Property("anchorPoint", \.anchorPoint, animatable: true, effect: .geometry)
    public static let anchorPointZ = Property("anchorPointZ", \.anchorPointZ, animatable: true, effect: .geometry)
    public static let zPosition = Property("zPosition", \.zPosition, animatable: true, effect: .geometry)
    public static let transform = Property("transform", \.transform, animatable: true, effect: .geometry)
    public static let sublayerTransform = Property("sublayerTransform", \.sublayerTransform, animatable: true, effect: .geometry)

    // Appearance
    public static let opacity = Property("opacity", \.opacity, animatable: true, effect: .appearance) { v, _ in
        min(max(v, 0), 1) // Core Animation clamps opacity to 0...1
    }
    /// Not animatable, as in Core Animation.
    public static let allowsGroupOpacity = Property("allowsGroupOpacity", \.allowsGroupOpacity, animatable: false, effect: .appearance)
    public static let hidden = Property("hidden", \.hidden, animatable: true, effect: .appearance)
    public static let backgroundColor = Property("backgroundColor", \.backgroundColor, animatable: true, effect: .appearance) { c, _ throws(LayerKitError) in
        if let c { try checkColor("backgroundColor", c) }
        return c
    }
    public static let borderColor = Property("borderColor", \.borderColor, animatable: true, effect: .appearance) { c, _ throws(LayerKitError) in
        try checkColor("borderColor", c); return c
    }
    public static let borderWidth = Property("borderWidth", \.borderWidth, animatable: true, effect: .appearance) { v, _ throws(LayerKitError) in
        try nonNegative("borderWidth", v)
    }
    public static let cornerRadius = Property("cornerRadius", \.cornerRadius, animatable: true, effect: .appearance) { v, _ throws(LayerKitError) in
        try nonNegative("cornerRadius", v)
    }
    public static let masksToBounds = Property("masksToBounds", \.masksToBounds, animatable: true, effect: .appearance)
    public static let doubleSided = Property("doubleSided", \.doubleSided, animatable: false, effect: .appearance)
    public static let shadowColor = Property("shadowColor", \.shadowColor, animatable: true, effect: .appearance) { c, _ throws(LayerKitError) in
        try checkColor("shadowColor", c); return c
    }
    public static let shadowOpacity = Property("shadowOpacity", \.shadowOpacity, animatable: true, effect: .appearance) { v, _ in
        min(max(v, 0), 1)
    }
    public static let shadowOffset = Property("shadowOffset", \.shadowOffset, animatable: true, effect: .appearance)
    public static let shadowRadius = Property("shadowRadius", \.shadowRadius, animatable: true, effect: .appearance) { v, _ throws(LayerKitError) in
        try nonNegative("shadowRadius", v)
    }
    /// The layer keeps its own frozen copy, as CGPath is immutable.
    public static let shadowPath = Property("shadowPath", \.shadowPath, animatable: true, effect: .appearance) { p, _ in
        p?.frozen()
    }
    public static let contents = Property("contents", \.contents, animatable: true, effect: .appearance)
    public static let contentsRect = Property("contentsRect", \.contentsRect, animatable: true, effect: .appearance)
    public static let contentsCenter = Property("contentsCenter", \.contentsCenter, animatable: true, effect: .appearance)
    public static let contentsGravity = Property("contentsGravity", \.contentsGravity, animatable: false, effect: .appearance)
    public static let contentsScale = Property("contentsScale", \.contentsScale, animatable: false, effect: .appearance) { v, _ throws(LayerKitError) in
        guard v > 0 else { throw .invalid("contentsScale: must be greater than 0 (got \(v))") }
        return v
    }
    public static let magnificationFilter = Property("magnificationFilter", \.magnificationFilter, animatable: false,
                                                     effect: .appearance)
    public static let minificationFilter = Property("minificationFilter", \.minificationFilter, animatable: false,
                                                    effect: .appearance)
    /// Used by a trilinear minification filter's mipmap level choice (which
    /// LayerKit's backends draw as linear): kept and reported.
    public static let minificationFilterBias = Property("minificationFilterBias", \.minificationFilterBias,
                                                        animatable: false, effect: .none)
    /// Hierarchy rules for masks are checked by Layer.setMask before this row is reached.
    public static let mask = Property("mask", \.mask, animatable: true, effect: .appearance)
    public static let name = Property("name", \.name, animatable: false, effect: .none)
    public static let needsDisplayOnBoundsChange = Property("needsDisplayOnBoundsChange", \.needsDisplayOnBoundsChange,
                                                            animatable: false, effect: .none)

    // Timing (S4.1)
    public static let beginTime = Property("beginTime", \.timing.beginTime, animatable: false, effect: .timing)
    public static let duration = Property("duration", \.timing.duration, animatable: false, effect: .timing, allowsInfinity: true) { v, _ throws(LayerKitError) in
        guard !v.isNaN else { throw .invalid("duration: nan is not a duration") }
        return try nonNegative("duration", v)
    }
    public static let speed = Property("speed", \.timing.speed, animatable: false, effect: .timing)
    public static let timeOffset = Property("timeOffset", \.timing.timeOffset, animatable: false, effect: .timing)
    public static let repeatCount = Property("repeatCount", \.timing.repeatCount, animatable: false, effect: .timing, allowsInfinity: true) { v, state throws(LayerKitError) in
        guard !v.isNaN else { throw .invalid("repeatCount: nan is not a count") }
        let v = try nonNegative("repeatCount", v)
        if v != 0, state.timing.repeatDuration != 0 {
            throw LayerKitError(.state, "repeatCount: repeatDuration is already set (\(state.timing.repeatDuration)); the two are exclusive (S4.4)")
        }
        return v
    }
    public static let repeatDuration = Property("repeatDuration", \.timing.repeatDuration, animatable: false, effect: .timing, allowsInfinity: true) { v, state throws(LayerKitError) in
        guard !v.isNaN else { throw .invalid("repeatDuration: nan is not a duration") }
        let v = try nonNegative("repeatDuration", v)
        if v != 0, state.timing.repeatCount != 0 {
            throw LayerKitError(.state, "repeatDuration: repeatCount is already set (\(state.timing.repeatCount)); the two are exclusive (S4.4)")
        }
        return v
    }
    public static let autoreverses = Property("autoreverses", \.timing.autoreverses, animatable: false, effect: .timing)
    public static let fillMode = Property("fillMode", \.timing.fillMode, animatable: false, effect: .timing)

    /// Every stored property, then the derived ones.
    public static let all: [AnyProperty] = [
        bounds.erased, position.erased, anchorPoint.erased, anchorPointZ.erased, zPosition.erased,
        transform.erased, sublayerTransform.erased, opacity.erased, allowsGroupOpacity.erased, hidden.erased,
        backgroundColor.erased, borderColor.erased, borderWidth.erased, cornerRadius.erased,
        masksToBounds.erased, doubleSided.erased, shadowColor.erased, shadowOpacity.erased,
        shadowOffset.erased, shadowRadius.erased, shadowPath.erased, contents.erased,
        contentsRect.erased, contentsCenter.erased, contentsGravity.erased, contentsScale.erased,
        magnificationFilter.erased, minificationFilter.erased, minificationFilterBias.erased, mask.erased, name.erased,
        needsDisplayOnBoundsChange.erased,
        beginTime.erased, duration.erased, speed.erased, timeOffset.erased, repeatCount.erased,
        repeatDuration.erased, autoreverses.erased, fillMode.erased,
        frame,
    ]

    /// frame is derived from bounds, anchorPoint, position and transform (S1.2).
    public static let frame = AnyProperty(
        key: "frame", type: .rect, animatable: false, effect: .geometry,
        read: { .rect($0.pointee.frame) },
        set: { (layer, value) throws(LayerKitError) in
            guard let r = Rect.from(value) else { throw mismatch("frame", .rect, value, Rect.self) }
            try layer.setFrame(r)
        },
        setState: { state, value in
            guard let r = Rect.from(value) else { return false }
            state.bounds.size = r.size
            state.position = Point(x: r.origin.x + state.anchorPoint.x * r.size.width,
                                   y: r.origin.y + state.anchorPoint.y * r.size.height)
            return true
        })

    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    public static func named(_ key: String) -> AnyProperty? { byKey[key] }

    /// The rows of `all` by their field's offset in LayerState.
    private static let byOffset: [AnyProperty?] = {
        var rows = [AnyProperty?](repeating: nil, count: MemoryLayout<LayerState>.size + 1)
        for row in all { if let offset = row.offset { rows[offset] = row } }
        return rows
    }()

    /// The row of the property whose field is at `offset`, when it is the
    /// one named `key` (a struct and its first field share an offset).
    static func row(atOffset offset: Int, key: String) -> AnyProperty? {
        guard offset >= 0, offset < byOffset.count, let row = byOffset[offset], row.key == key else { return nil }
        return row
    }
}

private func nonNegative(_ key: String, _ v: Double) throws(LayerKitError) -> Double {
    guard v >= 0 else { throw .invalid("\(key): must not be negative (got \(v))") }
    return v
}

private func checkColor(_ key: String, _ c: Color) throws(LayerKitError) {
    guard c.isInUnitRange else {
        throw .invalid("\(key): components must be within 0...1 (got \(describe(c.value)))")
    }
}
