/// What a layer draws besides the S6.1 basics: its kind (CAShapeLayer,
/// CATextLayer, CAGradientLayer ...). A kind's own properties live out of
/// line, in one reference held by LayerState, so that a plain layer pays
/// one word for all kinds there are and will be.
public enum LayerKind: UInt8, CaseIterable, Sendable {
    case plain = 0, shape, text, gradient
    case emitter
    case replicator
    // The spatial kinds (S7.6-S7.8).
    case transform, scroll, tiled

    /// How messages name a layer of this kind.
    public var name: String {
        switch self {
        case .plain: "layer"
        case .shape: "shape layer"
        case .text: "text layer"
        case .gradient: "gradient layer"
        case .emitter: "emitter layer"
        case .replicator: "replicator layer"
        case .transform: "transform layer"
        case .scroll: "scroll layer"
        case .tiled: "tiled layer"
        }
    }

    /// The kind's own property rows (S7), by key: the ones a layer of the
    /// kind has on top of LayerProperties.
    var properties: [String: AnyProperty] {
        switch self {
        case .plain: [:]
        case .shape: ShapeProperties.byKey
        case .text: TextProperties.byKey
        case .gradient: GradientProperties.byKey
        case .emitter: EmitterProperties.byKey
        case .replicator: ReplicatorProperties.byKey
        case .transform: TransformProperties.byKey
        case .scroll: ScrollProperties.byKey
        case .tiled: TiledProperties.byKey
        }
    }

    /// A fresh state of the kind's properties, at their defaults.
    func makeState() -> (any KindState)? {
        switch self {
        case .plain: nil
        case .shape: ShapeState()
        case .text: TextState()
        case .gradient: GradientState()
        case .emitter: EmitterState()
        case .replicator: ReplicatorState()
        case .transform: TransformState()
        case .scroll: ScrollState()
        case .tiled: TiledState()
        }
    }

    /// Whether ContentRasterizer draws the kind's content (S7.1-S7.3).
    var rasterizes: Bool {
        switch self {
        case .shape, .text, .gradient: true
        case .plain, .emitter, .replicator, .transform, .scroll, .tiled: false
        }
    }
}

/// The properties of one kind of layer: a value type, compared whole to
/// decide whether the layer's rasterized content is still valid.
public protocol KindState: Equatable, Sendable {
    static var kind: LayerKind { get }
    init()
}

extension KindState {
    func isEqual(to other: any KindState) -> Bool { (other as? Self) == self }
}

/// The out-of-line box; copy-on-write through LayerState's accessors, so a
/// committed copy of a state shares it until either side changes.
public final class KindStorage: @unchecked Sendable {
    var value: any KindState
    init(_ value: any KindState) { self.value = value }
}

extension LayerState {
    /// The layer's kind, fixed when it was created.
    public var layerKind: LayerKind { kindStorage.map { type(of: $0.value).kind } ?? .plain }

    /// The kind's state, or its defaults when the layer is of another kind.
    func kindState<K: KindState>(_: K.Type) -> K { (kindStorage?.value as? K) ?? K() }

    /// Writes the kind's state; a layer of another kind is left alone (its
    /// rows are never resolved for it).
    mutating func setKindState<K: KindState>(_ value: K) {
        guard kindStorage?.value is K else { return }
        if isKnownUniquelyReferenced(&kindStorage) {
            kindStorage!.value = value
        } else {
            kindStorage = KindStorage(value)
        }
    }

    /// The kind's properties as one value, for cache keys.
    var kindValue: (any KindState)? { kindStorage?.value }
}

extension LayerProperties {
    /// A row by key for a layer of `kind`: the common rows, then the kind's.
    static func named(_ key: String, kind: LayerKind) -> AnyProperty? {
        byKey[key] ?? (kind == .plain ? nil : kind.properties[key])
    }

    /// The error for a key that names no property of a layer of `kind`: it
    /// says which kinds have it, if any do.
    static func unknownKey(_ keyPath: String, first: String, kind: LayerKind) -> LayerKitError {
        func a(_ name: String) -> String { ("aeiou".contains(name.first ?? "x") ? "an " : "a ") + name }
        if let owner = LayerKind.allCases.first(where: { $0 != kind && $0.properties[first] != nil }) {
            return LayerKitError(.unknownKeyPath,
                                 "key_path: \"\(keyPath)\" is a property of \(a(owner.name)), not of \(a(kind.name))")
        }
        // A cell whose name has a dot in it cannot be named in a key path.
        let hint = kind == .emitter && first == "emitterCells"
            ? " (a cell's property is emitterCells.NAME.PROPERTY, through nested cells' names; names with a \".\" cannot be reached)"
            : ""
        return LayerKitError(.unknownKeyPath, "key_path: \"\(keyPath)\" is not a property of \(a(kind.name))\(hint)")
    }
}
