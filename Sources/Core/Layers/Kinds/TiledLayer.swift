/// CATiledLayer (S7.8): content drawn by the delegate in tiles, on demand,
/// only where the layer shows, at the level of detail of its current
/// scale. The tiles live in the layer's TileStore (shared by the model and
/// every committed copy), evicted least recently used beyond
/// `tileCacheLimit` bytes. docs/layers-3d.md says how it works.
public struct TiledState: KindState {
    public static var kind: LayerKind { .tiled }
    /// In pixels, as Core Animation's; 256 x 256 by default.
    public var tileSize = Size(width: 256, height: 256)
    /// How many levels there are, each half the resolution of the one
    /// before; 1 by default.
    public var levelsOfDetail = 1.0
    /// How many of those levels are magnified (2x, 4x, ...); 0 by default.
    public var levelsOfDetailBias = 0.0
    /// LayerKit's: the bytes of tile images kept for this layer (64 MiB).
    public var tileCacheLimit = 64.0 * 1024 * 1024
    /// Identity, not value: every copy of the state names the same store.
    let store: TileStore
    public init() { store = TileStore() }

    public static func == (a: TiledState, b: TiledState) -> Bool {
        a.tileSize == b.tileSize && a.levelsOfDetail == b.levelsOfDetail
            && a.levelsOfDetailBias == b.levelsOfDetailBias && a.tileCacheLimit == b.tileCacheLimit && a.store === b.store
    }
}

extension LayerState {
    public var tiled: TiledState {
        get { kindState(TiledState.self) }
        set { setKindState(newValue) }
    }
}

public enum TiledProperties {
    private static func count(_ key: String, _ v: Double, minimum: Double) throws(LayerKitError) -> Double {
        guard v == v.rounded(), v >= minimum, v <= 30 else {
            throw .invalid("\(key): must be a whole number within \(Int(minimum))...30 (got \(describe(.number(v))))")
        }
        return v
    }

    /// Whole pixels, 16...4096 a side (a tile is one image).
    public static let tileSize = Property("tileSize", \LayerState.tiled.tileSize, animatable: false, effect: .appearance,
                                          kind: .tiled) { s, _ throws(LayerKitError) in
        guard s.width == s.width.rounded(), s.height == s.height.rounded(),
              s.width >= 16, s.height >= 16, s.width <= 4096, s.height <= 4096 else {
            throw .invalid("tileSize: each side must be a whole number of pixels within 16...4096 (got \(describe(s.value)))")
        }
        return s
    }
    public static let levelsOfDetail = Property("levelsOfDetail", \LayerState.tiled.levelsOfDetail, animatable: false,
                                                effect: .appearance, kind: .tiled) { v, _ throws(LayerKitError) in
        try count("levelsOfDetail", v, minimum: 1)
    }
    public static let levelsOfDetailBias = Property("levelsOfDetailBias", \LayerState.tiled.levelsOfDetailBias,
                                                    animatable: false, effect: .appearance,
                                                    kind: .tiled) { v, _ throws(LayerKitError) in
        try count("levelsOfDetailBias", v, minimum: 0)
    }
    /// The largest tileCacheLimit: 2^52 bytes.
    public static let maxTileCacheLimit = Double(1 << 52)
    public static let tileCacheLimit = Property("tileCacheLimit", \LayerState.tiled.tileCacheLimit, animatable: false,
                                                effect: .appearance, kind: .tiled) { v, _ throws(LayerKitError) in
        // Up to 2^52, as lk_tiled_layer_set_tile_cache_limit: every such
        // count is a double exactly, and the typed getter's size_t holds it
        // (1e30 through the key path made that getter trap).
        guard v >= 0, v <= maxTileCacheLimit, v == v.rounded() else {
            throw .invalid("tileCacheLimit: must be a whole number of bytes within 0...2^52 (got \(describe(.number(v))))")
        }
        return v
    }

    static let all: [AnyProperty] = [tileSize.erased, levelsOfDetail.erased, levelsOfDetailBias.erased,
                                     tileCacheLimit.erased]
    static let byKey: [String: AnyProperty] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}

extension Layer {
    /// The tile store of a tiled layer, nil for other kinds.
    var tileStore: TileStore? { (state.kindStorage?.value as? TiledState)?.store }

    /// setNeedsDisplayInRect: a tiled layer redraws only the tiles that
    /// meet `r` (layer coordinates); any other layer redraws whole, as
    /// setNeedsDisplay.
    public func setNeedsDisplay(in r: Rect) throws(LayerKitError) {
        try checkWritable()
        guard r.isFinite else { throw .invalid("r: \(describe(r.value)) is not finite") }
        guard r.size.width >= 0, r.size.height >= 0 else { throw .invalid("r: width and height must not be negative") }
        if let store = tileStore { store.markInvalid(r) } else { needsDisplay = true }
        needsDisplay = true
        changed()
    }
}
